"""The eight DCP-07 dispute statuses (R6), the final ones, and the transition table between
them: the one table every case and dispute moves by (:func:`check_transition`)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from accord.errors import IllegalTransition


class CaseStatus(StrEnum):
    """The eight DCP-07 dispute statuses (R6)."""

    OPEN = "open"
    NEGOTIATING = "negotiating"
    ESCALATED = "escalated"
    ARBITRATING = "arbitrating"
    APPEALING = "appealing"
    RESOLVED = "resolved"
    WITHDRAWN = "withdrawn"
    ABANDONED = "abandoned"


FINAL: frozenset[CaseStatus] = frozenset(
    {CaseStatus.RESOLVED, CaseStatus.WITHDRAWN, CaseStatus.ABANDONED}
)
"""Statuses nothing leaves."""

_ENDS = frozenset({CaseStatus.RESOLVED, CaseStatus.WITHDRAWN})
"""Every active status may be resolved or withdrawn."""

_RUN_OUT = _ENDS | {CaseStatus.ABANDONED}
"""R6: ``abandoned`` = every deadline ran out with no resolution and no party pursued
escalation. A tier deadline below human appeal escalates automatically (R4, R9), so only a
dispute already at the last tier — ``appealing``, or a settle case ``escalated`` to human appeal
and waiting there without an approval item — can run out of deadlines. ``open``,
``negotiating`` and ``arbitrating`` never become ``abandoned`` directly."""

TRANSITIONS: Mapping[CaseStatus, frozenset[CaseStatus]] = {
    # settle opens a case: agreement, a merge or a tier-1 rung resolves it at once (R7);
    # negotiation starts (R7), or it escalates / starts above tier 1 (R2, R9, R17, R18)
    CaseStatus.OPEN: _ENDS
    | {CaseStatus.NEGOTIATING, CaseStatus.ESCALATED, CaseStatus.ARBITRATING, CaseStatus.APPEALING},
    # failed negotiation escalates (R9); any party may go to human appeal at any time (R17)
    CaseStatus.NEGOTIATING: _ENDS | {CaseStatus.ESCALATED, CaseStatus.APPEALING},
    # an escalated case escalates again to a higher tier (R4: a strategy could not settle it),
    # goes to a panel or to people (queued), a strategy / probe settles it, or — waiting at
    # human appeal — its last deadline runs out (R6)
    CaseStatus.ESCALATED: _RUN_OUT
    | {CaseStatus.ESCALATED, CaseStatus.ARBITRATING, CaseStatus.APPEALING},
    # a split decision escalates to tier 3 (R15); human appeal at any time (R17)
    CaseStatus.ARBITRATING: _ENDS | {CaseStatus.ESCALATED, CaseStatus.APPEALING},
    # people decide (final, R16), deny, let it expire, or a probe settles it first
    CaseStatus.APPEALING: _RUN_OUT,
    CaseStatus.RESOLVED: frozenset(),
    CaseStatus.WITHDRAWN: frozenset(),
    CaseStatus.ABANDONED: frozenset(),
}
"""From each DCP status, the statuses a case may move to (R6)."""


def is_legal(from_status: CaseStatus, to_status: CaseStatus) -> bool:
    """Whether the lifecycle joins ``from_status`` to ``to_status``."""
    return to_status in TRANSITIONS[from_status]


def check_transition(
    from_status: CaseStatus,
    to_status: CaseStatus,
    case_id: str = "",
    *,
    at_last_tier: bool | None = None,
) -> None:
    """Raise :class:`IllegalTransition` unless ``from_status`` → ``to_status`` is legal.

    ``at_last_tier`` (when the caller knows it) says whether the case is at human appeal:
    ``escalated`` → ``abandoned`` is legal only there (R6: every deadline ran out)."""
    waiting_below = (
        to_status is CaseStatus.ABANDONED
        and from_status is CaseStatus.ESCALATED
        and at_last_tier is False
    )
    if is_legal(from_status, to_status) and not waiting_below:
        return
    if from_status in FINAL:
        why = "a final status"
    elif to_status is CaseStatus.ABANDONED:
        why = (
            "not at the last tier: its deadline escalates (R4, R9); abandoned means every "
            "deadline ran out"
        )
    else:
        why = "not joined by the lifecycle"
    raise IllegalTransition(
        f"case {case_id or '(new)'} cannot move from {from_status.value} to "
        f"{to_status.value}: {from_status.value} is {why} (DCP-07 R6)",
        case_id=case_id or None,
        from_status=from_status.value,
        to_status=to_status.value,
        field="status",
        rule="R6",
        requirement="R6",
    )


__all__ = ["FINAL", "TRANSITIONS", "CaseStatus", "check_transition", "is_legal"]
