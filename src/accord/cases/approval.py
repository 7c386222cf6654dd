"""A settle case's approval item: the one way a case is put before people in the queue.

``settle`` queues an item when its strategy asks for people (a staged request, written with
the case); the case's tier deadline queues one when it escalates the case to human appeal
(R4). Both build the item here, inside the caller's write transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection

from accord.approvals import ApprovalItem, ApprovalQueue, TimeoutPolicy
from accord.cases.case import Case


def request_case_approval(
    conn: Connection,
    approvals: ApprovalQueue,
    case: Case,
    *,
    item_id: str,
    summary: str,
    analysis: str,
    options: Sequence[str],
    option_texts: Sequence[str],
    policy: TimeoutPolicy,
) -> ApprovalItem:
    """Queue ``case`` for people as item ``item_id`` (its risk is the case's severity)."""
    severity = case.detection.severity.value if case.detection.severity else "medium"
    return approvals.request_within(
        conn,
        item_id=item_id,
        case_id=case.case_id,
        title=f"Decide: {case.subject}",
        summary=summary,
        positions=[
            {
                "agent": p.agent,
                "answer": p.output,
                "confidence": p.confidence,
                "reasoning": p.reasoning or "",
            }
            for p in case.positions
        ],
        analysis=analysis,
        options=options,
        option_texts=option_texts,
        risk=severity,  # type: ignore[arg-type]
        policy=policy,
    )
