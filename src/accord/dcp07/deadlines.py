"""DCP-07's deadline rules (R2, R3, R4, R6, R9, R18, R42), pure: no clock, no database.

* First tier by dispute type (R2, :data:`accord.conflicts.STARTING_TIERS`); a critical dispute
  may start at human appeal (R18), nothing else may.
* Each tier's deadline by severity (R3): low 24 h, medium 4 h, high 1 h, critical 15 min.
* When a tier's deadline passes with the dispute unresolved (R4, R9, R42) it escalates to the
  next tier and the clock restarts there: negotiation → arbitration → human appeal.
* Human appeal has no tier above it, so a passed deadline there cannot escalate. Accord
  settles what happens then: if no party ever pursued escalation itself (every tier change
  was a deadline running out) the dispute is ``abandoned`` (R6: every deadline ran out, no
  resolution, no party pursued escalation); if a party did, the people it appealed to still
  owe a decision, so the deadline *lapses*: the dispute stays at human appeal, unarmed, until
  a person decides it (the approval queue's ``wait``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict

from accord.conflicts import STARTING_TIERS, TIER_ORDER, DisputeType, Severity, Tier
from accord.errors import ValidationError

DEADLINE_ACTOR = "accord:deadline"
"""The actor of a step the tier deadline took (R4), not a party."""

_BY_SEVERITY: Mapping[Severity, timedelta] = {
    Severity.LOW: timedelta(hours=24),
    Severity.MEDIUM: timedelta(hours=4),
    Severity.HIGH: timedelta(hours=1),
    Severity.CRITICAL: timedelta(minutes=15),
}

TIER_DEADLINES: Mapping[tuple[Severity, Tier], timedelta] = MappingProxyType(
    {(severity, tier): span for severity, span in _BY_SEVERITY.items() for tier in TIER_ORDER}
)
"""R3: each (severity, tier)'s deadline; the text gives every tier of a severity the same."""


def first_tier(
    dispute_type: DisputeType | str, severity: Severity | str, *, start_at_appeal: bool = False
) -> Tier:
    """The tier a new dispute starts at (R2); ``start_at_appeal`` only for critical (R18)."""
    kind = _dispute_type(dispute_type)
    level = _severity(severity)
    if start_at_appeal:
        if level is not Severity.CRITICAL:
            raise ValidationError(
                f"only a critical dispute may start at human appeal, not a {level.value} one",
                code="disputes.invalid",
                field="start_at_appeal",
                rule="R18: critical disputes may start at human appeal",
                requirement="R18",
            )
        return Tier.HUMAN_APPEAL
    return STARTING_TIERS[kind]


def tier_deadline(severity: Severity | str, tier: Tier | str) -> timedelta:
    """How long ``tier`` has to resolve a dispute of ``severity`` (R3)."""
    return TIER_DEADLINES[(_severity(severity), _tier(tier))]


def next_tier(tier: Tier | str) -> Tier | None:
    """The tier above ``tier`` (None above human appeal)."""
    index = TIER_ORDER.index(_tier(tier))
    return TIER_ORDER[index + 1] if index + 1 < len(TIER_ORDER) else None


class DeadlineStep(BaseModel):
    """What a passed tier deadline does to an unresolved dispute.

    ``escalate``: move to ``to_tier``, whose own deadline is ``next_due`` (R4). ``abandon``:
    the dispute ends ``abandoned`` (R6). ``lapse``: stays at human appeal, unarmed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: Literal["escalate", "abandon", "lapse"]
    from_tier: Tier
    to_tier: Tier | None = None
    next_due: AwareDatetime | None = None


def after_deadline(
    tier: Tier | str, severity: Severity | str, *, party_escalated: bool, now: datetime
) -> DeadlineStep:
    """The step R4/R6 take when ``tier``'s deadline passes at ``now`` without a resolution."""
    current = _tier(tier)
    above = next_tier(current)
    if above is not None:
        return DeadlineStep(
            action="escalate",
            from_tier=current,
            to_tier=above,
            next_due=now + tier_deadline(severity, above),
        )
    return DeadlineStep(action="lapse" if party_escalated else "abandon", from_tier=current)


def _dispute_type(value: DisputeType | str) -> DisputeType:
    try:
        return DisputeType(value)
    except ValueError:
        raise _unknown("dispute_type", value, [t.value for t in DisputeType], "R1") from None


def _severity(value: Severity | str) -> Severity:
    try:
        return Severity(value)
    except ValueError:
        raise _unknown("severity", value, [s.value for s in Severity], "R3") from None


def _tier(value: Tier | str) -> Tier:
    try:
        return Tier(value)
    except ValueError:
        raise _unknown("tier", value, [t.value for t in TIER_ORDER], "R38") from None


def _unknown(field: str, value: object, valid: list[str], requirement: str) -> ValidationError:
    return ValidationError(
        f"unknown {field} {value!r}; valid: {', '.join(valid)}",
        code="disputes.invalid",
        field=field,
        rule=f"{requirement}: one of {', '.join(valid)}",
        requirement=requirement,
    )
