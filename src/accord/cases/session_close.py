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
from accord.cases.case import Case, CaseStatus, SettleStatus
from accord.cases.deadlines import cancel_case_deadline
from accord.cases.records import ByProbe
from accord.cases.settle_on_winner import Dissenter, Settlement, lead_of, settle_on_winner
from accord.cases.store import CaseStore
from accord.conflicts import Tier
from accord.ledger import Ledger


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
    if case.classification is None:  # only agreement and merges have none; they never wait
        raise ValueError(f"case {case.case_id} was never a classified dispute")
    start = case.classification.starting_tier
    return Tier.CONTEXTUAL_ARBITRATION if start is Tier.HUMAN_APPEAL else start


def probe_reasoning(receipt: ResolutionReceipt) -> str:
    """What decided a probe-settled case, in words."""
    return f"probe {receipt.probe} answered {receipt.result.value!r}: {receipt.result.detail}"


def fold_receipt(case: Case, receipt: ResolutionReceipt) -> Settlement:
    """The case settled by a successor's tie-breaker probe (pure)."""
    winners = receipt.winner_agents
    lead = lead_of(case.positions, winners)
    by_agent = {p.agent: p for p in case.positions}
    return settle_on_winner(
        case,
        winners=winners,
        answer=by_agent[lead].output,
        lead=lead,
        rung="tie_breaker_probe",
        tier=tier_reached_without_people(case),
        confidence=1.0,
        decided_by=f"probe:{receipt.probe}",
        reasoning=probe_reasoning(receipt),
        decided_at=receipt.resolved_at,
        dissenters=[
            Dissenter(by_agent[agent], "tie_breaker_probe")
            for agent in receipt.loser_agents
            if agent in by_agent
        ],
    )


def settle_from_receipt(
    store: CaseStore, ledger: Ledger, approvals: ApprovalQueue
) -> Callable[[Connection, ResolutionReceipt], None]:
    """The boundary service's ``on_resolved`` hook: settle the case in the resolve transaction."""

    def settle(conn: Connection, receipt: ResolutionReceipt) -> None:
        case = store.get_within(conn, receipt.case_id)
        if case.status is not SettleStatus.ESCALATED:
            return  # settled meanwhile (e.g. by a person): the receipt stays as evidence
        settlement = fold_receipt(case, receipt)
        store.update(conn, settlement.case)
        cancel_case_deadline(conn, case.case_id, receipt.resolved_at)
        if case.approval_item_id is not None:
            item = approvals.get_within(conn, case.approval_item_id)
            if item.status.value == "pending":
                approvals.cancel_within(
                    conn,
                    case.approval_item_id,
                    cancelled_by=f"probe:{receipt.probe}",
                    reason="settled by a successor's tie-breaker probe",
                )
        how = ByProbe(
            probe=receipt.probe,
            reasoning=probe_reasoning(receipt),
            boundary_id=receipt.boundary_id,
            receipt_hash=receipt.receipt_hash,
        )
        ledger.append_within(conn, [settlement.resolved_record(how).event()])

    return settle
