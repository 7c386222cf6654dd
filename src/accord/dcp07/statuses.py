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

_ACTIVE_EXITS = frozenset({CaseStatus.RESOLVED, CaseStatus.WITHDRAWN, CaseStatus.ABANDONED})

TRANSITIONS: Mapping[CaseStatus, frozenset[CaseStatus]] = {
    # settle opens a case: agreement, a merge or a tier-1 rung resolves it at once (R7);
    # negotiation starts (R7), or it escalates / starts above tier 1 (R2, R9, R17, R18)
    CaseStatus.OPEN: _ACTIVE_EXITS
    | {CaseStatus.NEGOTIATING, CaseStatus.ESCALATED, CaseStatus.ARBITRATING, CaseStatus.APPEALING},
    # failed negotiation escalates (R9); any party may go to human appeal at any time (R17)
    CaseStatus.NEGOTIATING: _ACTIVE_EXITS | {CaseStatus.ESCALATED, CaseStatus.APPEALING},
    # an escalated case escalates again to a higher tier (R4: a strategy could not settle it),
    # goes to a panel or to people (queued), or a strategy / probe settles it
    CaseStatus.ESCALATED: _ACTIVE_EXITS
    | {CaseStatus.ESCALATED, CaseStatus.ARBITRATING, CaseStatus.APPEALING},
    # a split decision escalates to tier 3 (R15); human appeal at any time (R17)
    CaseStatus.ARBITRATING: _ACTIVE_EXITS | {CaseStatus.ESCALATED, CaseStatus.APPEALING},
    # people decide (final, R16), deny, let it expire, or a probe settles it first
    CaseStatus.APPEALING: _ACTIVE_EXITS,
    CaseStatus.RESOLVED: frozenset(),
    CaseStatus.WITHDRAWN: frozenset(),
    CaseStatus.ABANDONED: frozenset(),
}
"""From each DCP status, the statuses a case may move to (R6)."""


def is_legal(from_status: CaseStatus, to_status: CaseStatus) -> bool:
    """Whether the lifecycle joins ``from_status`` to ``to_status``."""
    return to_status in TRANSITIONS[from_status]


def check_transition(from_status: CaseStatus, to_status: CaseStatus, case_id: str = "") -> None:
    """Raise :class:`IllegalTransition` unless ``from_status`` → ``to_status`` is legal."""
    if is_legal(from_status, to_status):
        return
    why = "a final status" if from_status in FINAL else "not joined by the lifecycle"
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
