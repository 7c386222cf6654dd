"""Folding a person's decision (or a timeout) on an approval item back into its case (pure)."""

from __future__ import annotations

from datetime import datetime

from accord.conflicts import Tier
from accord.disputes.case import Case, CaseStatus, Decision, DissentRecord, SettleStatus
from accord.ids import new_id
from accord.resolution import Dispute, options_of


def _dispute(case: Case) -> Dispute:
    assert case.classification is not None
    return Dispute(
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
) -> Case:
    """Settle the case on the chosen answer, or close it unsettled: status ``denied`` (a
    person, or a timeout's deny action) or ``expired``, DCP status ``abandoned``."""
    options = options_of(_dispute(case))
    # Only a person's approval picks an answer: a timeout's automatic action ("approve" or
    # "deny") is a policy word, not one of the options, even when an answer reads the same.
    if outcome == "approved" and choice in options:
        group_index = options.index(choice)
        group = case.detection.groups[group_index]
        by_agent = {p.agent: p for p in case.positions}
        lead = max(group.agents, key=lambda a: by_agent[a].confidence or 0.0)
        rung = "human"
        decision = Decision(
            winner=lead,
            winners=group.agents,
            answer=group.answer,
            rung=rung,
            confidence=1.0,
            resolution_id=new_id("res", decided_at),
        )
        dissent = tuple(
            DissentRecord(
                dissent_id=new_id("dis", decided_at),
                case_id=case.case_id,
                agent_id=p.agent,
                task_type=case.task_type,
                kind=case.detection.kind.value if case.detection.kind else None,
                strategy=rung,
                position=p,
                winning_answer=group.answer,
                reasoning=reason or f"decided by {decided_by}",
                created_at=decided_at,
                subject=case.subject,
                severity=case.detection.severity.value if case.detection.severity else None,
                department=case.department,
                winners=group.agents,
                positions=case.positions,
                decided_by=decided_by,
            )
            for p in case.positions
            if p.agent not in group.agents
        )
        return case.model_copy(
            update={
                "status": SettleStatus.SETTLED,
                "dcp_status": CaseStatus.RESOLVED,
                "tier": Tier.HUMAN_APPEAL,
                "decision": decision,
                "dissent": dissent,
                "decided_at": decided_at,
            }
        )
    assert case.escalation is not None
    what = "denied" if outcome == "denied" else "expired without a decision"
    note = f"{decided_by}: {reason}" if reason else decided_by
    escalation = case.escalation.model_copy(
        update={"reason": f"{case.escalation.reason}; {what} ({note})"}
    )
    return case.model_copy(
        update={
            "status": SettleStatus.DENIED if outcome == "denied" else SettleStatus.EXPIRED,
            "dcp_status": CaseStatus.ABANDONED,
            "escalation": escalation,
            "decided_at": decided_at,
        }
    )
