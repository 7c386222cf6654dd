"""Folding a person's decision (or a timeout) on an approval item back into its case (pure)."""

from __future__ import annotations

from datetime import datetime

from accord.cases.case import Case
from accord.cases.lifecycle import Outcome, transition
from accord.cases.settle_on_winner import settle_on_winner
from accord.conflicts import Tier
from accord.ladder import Conflict, options_of
from accord.values import revised


def _conflict(case: Case) -> Conflict:
    assert case.classification is not None
    return Conflict(
        case_id=case.case_id,
        subject=case.subject,
        task_type=case.task_type,
        positions=case.positions,
        detection=case.detection,
        classification=case.classification,
        department=case.department,
    )


def fold_human_decision(
    case: Case,
    *,
    outcome: str,
    choice: str | None,
    decided_by: str,
    reason: str,
    decided_at: datetime,
    written_outcome: str | None = None,
) -> Case:
    """Settle the case on the chosen answer or on the person's ``written_outcome`` (no agent
    wins: every party dissents, overruled by the person), or close it unsettled: status
    ``denied`` (a person, or a timeout's deny action) or ``expired``, DCP status
    ``abandoned``."""
    if outcome == "approved" and written_outcome is not None:
        return settle_on_winner(
            case,
            winners=(),
            answer=written_outcome,
            rung="human",
            tier=Tier.HUMAN_APPEAL,
            confidence=1.0,
            decided_by=decided_by,
            reasoning=reason or f"outcome written by {decided_by}",
            decided_at=decided_at,
        ).case
    options = options_of(_conflict(case))
    # Only a person's approval picks an answer: a timeout's automatic action ("approve" or
    # "deny") is a policy word, not one of the options, even when an answer reads the same.
    if outcome == "approved" and choice in options:
        group = case.detection.groups[options.index(choice)]
        return settle_on_winner(
            case,
            winners=group.agents,
            answer=group.answer,
            rung="human",
            tier=Tier.HUMAN_APPEAL,
            confidence=1.0,
            decided_by=decided_by,
            reasoning=reason or f"decided by {decided_by}",
            decided_at=decided_at,
        ).case
    assert case.escalation is not None
    what = "denied" if outcome == "denied" else "expired without a decision"
    note = f"{decided_by}: {reason}" if reason else decided_by
    escalation = revised(case.escalation, reason=f"{case.escalation.reason}; {what} ({note})")
    return transition(
        case,
        Outcome.DENIED if outcome == "denied" else Outcome.EXPIRED,
        escalation=escalation,
        decided_at=decided_at,
    )
