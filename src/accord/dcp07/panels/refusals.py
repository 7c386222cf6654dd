"""The error tier-2 panels refuse with: a stable code, the DCP-07 requirement broken
(``context['requirement']``, e.g. ``"R11"``), the field and the rule."""

from __future__ import annotations

from typing import Any

from accord.errors import ValidationError


class PanelRefused(ValidationError):
    """A panel step (pool, nomination, formation, vote, tally) broke a DCP-07 rule; nothing
    changed."""

    code = "panels.refused"

    def __init__(
        self, message: str, *, code: str, requirement: str, field: str, rule: str, **context: Any
    ) -> None:
        super().__init__(
            message, code=code, requirement=requirement, field=field, rule=rule, **context
        )
