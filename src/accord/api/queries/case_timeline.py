"""A case's timeline (DCP-07 R5 ``timeline[]``: event, timestamp, actor), read from what is
stored: the case's own times and attempts, its approval item and the decision on it."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from accord.approvals import ApprovalItem, DecisionVerdict, verdict_of_decision
from accord.cases import Case, SettleStatus
from accord.clock import isoformat
from accord.deadlines import Deadline


class TimelineEvent(BaseModel):
    """One step of a case: what happened, when, and who (an agent, a rung, a person)."""

    model_config = ConfigDict(frozen=True)

    event: str
    timestamp: datetime
    actor: str
    tier: str | None = None
    detail: str = ""
    verdict: DecisionVerdict | None = Field(
        default=None,
        description="On a decision's event: what was decided (chosen, written, denied, "
        "expired); the event's name keeps the deprecated outcome word.",
    )


def case_timeline(
    case: Case, item: ApprovalItem | None, deadline: Deadline | None = None
) -> list[TimelineEvent]:
    """Oldest first. Attempts and the escalation carry the time settle ran (rungs run within
    one call, so only their order is known), a human decision its own time; the deadline the
    case waits on (``Accord.case_deadline``), when given, comes last as
    ``escalation_deadline`` at its due time."""
    events = [
        TimelineEvent(
            event="dispute_opened",
            timestamp=case.created_at,
            actor=", ".join(p.agent for p in case.positions),
            detail=case.subject,
        )
    ]
    decided_at = case.decided_at or case.created_at
    settled_at = item.created_at if item is not None else decided_at  # when settle ran
    events += [
        TimelineEvent(
            event="attempt_decided" if attempt.decided else "attempt_undecided",
            timestamp=settled_at,
            actor=attempt.rung,
            tier=attempt.tier.value,
            detail=attempt.detail,
        )
        for attempt in case.attempts
    ]
    if case.escalation is not None:
        events.append(
            TimelineEvent(
                event="dispute_escalated",
                timestamp=settled_at,
                actor="accord",
                tier=case.escalation.target_tier.value,
                detail=case.escalation.reason,
            )
        )
    if item is not None:
        events.append(
            TimelineEvent(
                event="approval_requested",
                timestamp=item.created_at,
                actor=item.current_role or "reviewers",
                tier="human_appeal",
                detail=item.title,
            )
        )
        if item.decision is not None:
            events.append(
                TimelineEvent(
                    event=f"approval_{item.decision.outcome}",
                    timestamp=item.decision.decided_at,
                    actor=item.decision.decided_by,
                    tier="human_appeal",
                    detail=item.decision.reason,
                    verdict=verdict_of_decision(item.decision),
                )
            )
    if case.decision is not None and case.status in (SettleStatus.SETTLED, SettleStatus.MERGED):
        events.append(
            TimelineEvent(
                event="dispute_resolved",
                timestamp=decided_at,
                actor=case.decision.rung or case.strategy or "accord",
                tier=case.tier.value,
                detail=f"winner {case.decision.winner}" if case.decision.winner else "",
            )
        )
    ordered = sorted(events, key=lambda e: e.timestamp)
    if deadline is not None:
        ordered.append(
            TimelineEvent(
                event="escalation_deadline",
                timestamp=deadline.due_at,
                actor="accord:deadline",
                tier=case.tier.value,
                detail=f"{deadline.kind} deadline armed at {isoformat(deadline.armed_at)}",
            )
        )
    return ordered
