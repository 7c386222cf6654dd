"""The one base of every ``accord.yaml`` section's model: frozen, unknown keys refused, and
no silent coercion (``"3"`` is not a number)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StrictSettings(BaseModel):
    """A configuration section as read from YAML: strict, closed and immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
