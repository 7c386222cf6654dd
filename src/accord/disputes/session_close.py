"""Closing a session: unresolved cases become disagreement boundaries; a successor's probe
receipt settles the case (the composition root's glue between ``disputes`` and ``boundary``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection

from accord.approvals import ApprovalQueue
from accord.boundary import (
    Boundary,
    BoundaryService,
    CaseView,
    CloseReport,
    ResolutionReceipt,
)
from accord.boundary.service import transcript_bytes_of
from accord.clock import isoformat
from accord.conflicts import Tier
from accord.disputes.case import Case, CaseStatus, Decision, DissentRecord, SettleStatus
from accord.disputes.case_store import CaseStore
from accord.disputes.ledger_records import dissent_entries, log_fields
from accord.disputes.signable import answer_hash
from accord.ids import new_id
from accord.ledger import Ledger
from accord.values import signable


def unresolved_cases(store: CaseStore, session_id: str) -> list[Case]:
    """The session's cases that nobody has settled yet (escalated, not abandoned)."""
    rows = store.find(status=SettleStatus.ESCALATED.value, session_id=session_id, limit=100_000)
    cases = [store.get(r["case_id"]) for r in rows]
    return [c for c in cases if c.dcp_status is not CaseStatus.ABANDONED]


# Parts of a case document that repeat what it already holds: the escalation payload copies
# every output, reasoning and rung attempt; dissent records copy the positions and arguments.
_DERIVED_COPIES: dict[str, Any] = {
    "escalation": {"outputs", "evidence", "strategies_tried"},
    "dissent": True,
}


def transcript_of(case: Case) -> dict[str, Any]:
    """The transcript a boundary replaces: the case document with each reasoning, argument and
    output counted once (not again in the escalation payload and dissent records)."""
    document: dict[str, Any] = case.model_dump(mode="json", exclude=_DERIVED_COPIES)
    return document


def close_session(service: BoundaryService, store: CaseStore, session_id: str) -> list[Boundary]:
    """Turn every unresolved case of ``session_id`` into a boundary (repeating records nothing)."""
    return list(close_session_report(service, store, session_id).boundaries)


def close_session_report(
    service: BoundaryService, store: CaseStore, session_id: str
) -> CloseReport:
    """``close_session``, saying also which cases it skipped and why (stylistic, or already
    recorded by an earlier close)."""
    cases = unresolved_cases(store, session_id)
    views = [
        CaseView(
            case_id=c.case_id,
            subject=c.subject,
            task_type=c.task_type,
            positions=c.positions,
            detection=c.detection,
        )
        for c in cases
    ]
    sizes = {c.case_id: transcript_bytes_of(transcript_of(c)) for c in cases}
    return service.close_report(session_id, views, sizes)


def tier_reached_without_people(case: Case) -> Tier:
    """The highest tier that worked on the case before it waited for people: a probe, not a
    person, decides it, so it is never ``human_appeal`` (a tier-2 strategy that ran makes it
    ``contextual_arbitration``; otherwise the tier the dispute started at)."""
    if any(
        a.tier is Tier.CONTEXTUAL_ARBITRATION and a.rung != "policy" for a in case.attempts
    ):
        return Tier.CONTEXTUAL_ARBITRATION
    start = case.classification.starting_tier if case.classification else case.tier
    return Tier.CONTEXTUAL_ARBITRATION if start is Tier.HUMAN_APPEAL else start


def probe_reasoning(receipt: ResolutionReceipt) -> str:
    """What decided a probe-settled case, in words."""
    return f"probe {receipt.probe} answered {receipt.result.value!r}: {receipt.result.detail}"


def fold_receipt(case: Case, receipt: ResolutionReceipt) -> Case:
    """The case settled by a successor's tie-breaker probe (pure)."""
    winners = receipt.winner_agents
    by_agent = {p.agent: p for p in case.positions}
    lead = max(winners, key=lambda a: by_agent[a].confidence or 0.0)
    answer = by_agent[lead].output
    decision = Decision(
        winner=lead,
        winners=winners,
        answer=answer,
        rung="tie_breaker_probe",
        confidence=1.0,
        resolution_id=new_id("res", receipt.resolved_at),
    )
    reasoning = probe_reasoning(receipt)
    dissent = tuple(
        DissentRecord(
            dissent_id=new_id("dis", receipt.resolved_at),
            case_id=case.case_id,
            agent_id=agent,
            task_type=case.task_type,
            kind=case.detection.kind.value if case.detection.kind else None,
            strategy="tie_breaker_probe",
            position=by_agent[agent],
            winning_answer=answer,
            reasoning=reasoning,
            created_at=receipt.resolved_at,
            subject=case.subject,
            severity=case.detection.severity.value if case.detection.severity else None,
            department=case.department,
            winners=winners,
            positions=case.positions,
            decided_by=f"probe:{receipt.probe}",
        )
        for agent in receipt.loser_agents
        if agent in by_agent
    )
    return case.model_copy(
        update={
            "status": SettleStatus.SETTLED,
            "dcp_status": CaseStatus.RESOLVED,
            "tier": tier_reached_without_people(case),
            "decision": decision,
            "dissent": dissent,
            "decided_at": receipt.resolved_at,
        }
    )


def settle_from_receipt(
    store: CaseStore, ledger: Ledger, approvals: ApprovalQueue
) -> Callable[[Connection, ResolutionReceipt], None]:
    """The boundary service's ``on_resolved`` hook: settle the case in the resolve transaction."""

    def settle(conn: Connection, receipt: ResolutionReceipt) -> None:
        case = store.get_within(conn, receipt.case_id)
        if case.status is not SettleStatus.ESCALATED:
            return  # settled meanwhile (e.g. by a person): the receipt stays as evidence
        settled = fold_receipt(case, receipt)
        store.update(conn, settled)
        if case.approval_item_id is not None:
            item = approvals.get_within(conn, case.approval_item_id)
            if item.status.value == "pending":
                approvals.cancel_within(
                    conn,
                    case.approval_item_id,
                    cancelled_by=f"probe:{receipt.probe}",
                    reason="settled by a successor's tie-breaker probe",
                )
        decision = settled.decision
        assert decision is not None
        ledger.append_within(
            conn,
            [
                (
                    "dispute_resolved",
                    {
                        "dispute_id": settled.case_id,
                        "resolution_id": decision.resolution_id,
                        "resolution_level": settled.tier.value,
                        "resolution_type": "tie_breaker_probe",
                        "decided_by": f"probe:{receipt.probe}",
                        "reasoning": probe_reasoning(receipt),
                        "rung": decision.rung,
                        "winner": decision.winner,
                        "winners": list(decision.winners),
                        "answer": signable(decision.answer),
                        "answer_hash": answer_hash(decision.answer),
                        "boundary_id": receipt.boundary_id,
                        "probe_receipt": receipt.receipt_hash,
                        "dissent": dissent_entries(settled),
                        "decided_at": isoformat(receipt.resolved_at),
                        "log": log_fields(settled),
                    },
                )
            ],
        )

    return settle
