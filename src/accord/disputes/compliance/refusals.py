"""How compliance refuses: errors naming the field, the rule and the R-number."""

from __future__ import annotations

from typing import Any

from accord.errors import NotFound, ValidationError


class ComplianceRefused(ValidationError):
    """A compliance call broke a rule (``compliance.*``); ``context['requirement']`` names it."""

    code = "compliance.refused"


class NoPendingAction(NotFound):
    """The agent owes no pending action under that dispute's binding resolution."""

    code = "compliance.no_pending_action"


def refused(
    requirement: str, field: str, rule: str, *, code: str, **context: Any
) -> ComplianceRefused:
    """A refusal naming the DCP-07 ``requirement``, the ``field`` and the ``rule``."""
    return ComplianceRefused(
        f"{field}: {rule} ({requirement})",
        code=code,
        requirement=requirement,
        field=field,
        rule=rule,
        **context,
    )
