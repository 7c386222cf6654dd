"""The error tier-1 negotiation refuses with: a stable code, the DCP-07 requirement broken
(``context['requirement']``, e.g. ``"R7"``), the field and the rule."""

from __future__ import annotations

from typing import Any

from accord.errors import ValidationError


class NegotiationRefused(ValidationError):
    """A negotiation step broke a DCP-07 rule; nothing changed."""

    code = "negotiation.refused"

    def __init__(
        self, message: str, *, code: str, requirement: str, field: str, rule: str, **context: Any
    ) -> None:
        super().__init__(
            message, code=code, requirement=requirement, field=field, rule=rule, **context
        )
