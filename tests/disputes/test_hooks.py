"""The hooks the negotiation, panel, objection and compliance steps call inside their own
transaction: a status move through the lifecycle, an R30 event, a §6 resolution."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from accord.clock import FrozenClock, isoformat
from accord.crypto import Ed25519Signer
from accord.dcp07 import ResolutionRecord, cosigned
from accord.deadlines import armed_for
from accord.deadlines.dispute_tier import DISPUTE_TIER
from accord.disputes import R30_EVENTS, Disputes
from accord.errors import AccordError, IllegalTransition, ValidationError
from accord.ledger import Ledger
from accord.store import Database
from accord.store.tables import ledger_entries
from tests.dcp07._records import human_appeal_document
from tests.disputes.conftest import File, evidence


def _entries(db: Database) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(ledger_entries)).scalar_one())


def _appeal_decision(disputes: Disputes, conn: Any, dispute_id: str) -> ResolutionRecord:
    link = disputes.chain_link_within(conn)
    document = human_appeal_document() | {
        "dispute_id": dispute_id,
        "prev_hash": link.prev_hash,
        "prev_hash_secondary": link.prev_hash_secondary,
    }
    for action, agent in zip(
        document["outcome"]["actions_required"], ("agent-a", "agent-b"), strict=True
    ):
        action["agent_id"] = agent  # R20: a binding resolution's actions are owed by parties
    record = ResolutionRecord.model_validate(document)
    return cosigned(record, "principal-a", Ed25519Signer.from_seed(bytes(32)))


def test_move_within_changes_status_through_the_lifecycle_or_writes_nothing(
    disputes: Disputes, filing: File, db: Database
) -> None:
    opened = disputes.open(filing())
    with disputes.transaction() as conn:
        moved = disputes.move_within(
            conn, opened.dispute_id, "negotiating", event_type="dispute_negotiation_proposal",
            actor="agent-a", details={"proposal_id": "p1"},
        )  # fmt: skip
    assert moved.status == "negotiating"
    before = _entries(db)
    with pytest.raises(IllegalTransition) as caught, disputes.transaction() as conn:
        disputes.move_within(
            conn, opened.dispute_id, "arbitrating", event_type="arbitration_panel_formed",
            actor="accord",
        )  # fmt: skip
    assert caught.value.context["rule"] == "R6"
    for status, event in (("resolved", "dispute_resolved"), ("open", "dispute_opened")):
        with pytest.raises(ValidationError), disputes.transaction() as conn:
            disputes.move_within(conn, opened.dispute_id, status, event_type=event, actor="x")
    assert _entries(db) == before
    assert disputes.show(opened.dispute_id).status == "negotiating"


def test_r19_resolve_within_records_the_resolution_cancels_the_deadline_and_scores_the_filer(
    disputes: Disputes, filing: File, db: Database, ledger: Ledger
) -> None:
    opened = disputes.open(filing())
    disputes.escalate(opened.dispute_id, by="agent-b", to_tier="human_appeal")
    with disputes.transaction() as conn:
        decision = _appeal_decision(disputes, conn, opened.dispute_id)
        resolved = disputes.resolve_within(
            conn, opened.dispute_id, decision, actor="principal-a", resolved_against=["agent-a"]
        )
    assert resolved.status == "resolved"
    assert resolved.resolution == decision
    entry = ledger.get(resolved.ledger_seqs[-1])
    assert entry.event_type == "dispute_resolved"
    assert entry.record["details"]["resolution"]["resolution_id"] == decision.resolution_id
    with db.read() as conn:
        assert armed_for(conn, DISPUTE_TIER, opened.dispute_id) is None
    with pytest.raises(ValidationError) as caught:  # R34: its score now asks for 1 item
        disputes.open(filing(evidence=[]))
    assert caught.value.code == "dcp.filing_bar"
    disputes.open(filing(evidence=[evidence(9)]))


def test_resolve_within_refuses_a_resolution_of_another_dispute(
    disputes: Disputes, filing: File
) -> None:
    first, second = disputes.open_many([filing(), filing()])
    with disputes.transaction() as conn:
        decision = _appeal_decision(disputes, conn, second.dispute_id)
        with pytest.raises(AccordError) as caught:
            disputes.resolve_within(conn, first.dispute_id, decision, actor="principal-a")
    assert caught.value.context["requirement"] == "R19"
    assert disputes.show(first.dispute_id).status == "open"


def test_r30_r43_every_audit_event_type_is_a_signed_ledger_entry_of_the_dispute(
    disputes: Disputes, filing: File, ledger: Ledger
) -> None:
    opened = disputes.open(filing())
    did = opened.dispute_id
    disputes.submit_evidence(did, evidence(2), by="agent-b")
    with disputes.transaction() as conn:
        disputes.move_within(
            conn, did, "negotiating", event_type="dispute_negotiation_proposal", actor="agent-a"
        )
    disputes.escalate(did, by="agent-a")
    with disputes.transaction() as conn:
        disputes.move_within(
            conn, did, "arbitrating", event_type="arbitration_panel_formed", actor="accord"
        )
        disputes.record_event_within(
            conn, did, "arbitration_vote_cast", actor="arb-1", details={"vote": "approve"}
        )
    disputes.escalate(did, by="agent-b", to_tier="human_appeal")
    with disputes.transaction() as conn:
        disputes.resolve_within(
            conn, did, _appeal_decision(disputes, conn, did), actor="principal-a"
        )
        for event in (
            "dispute_objection_filed",
            "dispute_compliance_verified",
            "dispute_compliance_failed",
        ):
            disputes.record_event_within(conn, did, event, actor="agent-a")
    final = disputes.show(did)
    events = [ledger.get(seq).event_type for seq in final.ledger_seqs]
    assert set(events) == set(R30_EVENTS)
    assert [t.event for t in final.record.timeline] == events
    with pytest.raises(ValidationError) as caught, disputes.transaction() as conn:
        disputes.record_event_within(conn, did, "dispute_gossip", actor="agent-a")
    assert caught.value.context["requirement"] == "R30"


def test_r15_move_within_can_change_the_tier_and_restart_its_clock(
    disputes: Disputes, filing: File, db: Database, frozen_clock: FrozenClock
) -> None:
    opened = disputes.open(filing(dispute_type="directive_conflict"))
    with disputes.transaction() as conn:
        disputes.move_within(
            conn, opened.dispute_id, "arbitrating", event_type="arbitration_panel_formed",
            actor="accord",
        )  # fmt: skip
    frozen_clock.advance(timedelta(minutes=30))
    with disputes.transaction() as conn:  # a split decision goes to human appeal (R15)
        moved = disputes.move_within(
            conn, opened.dispute_id, "appealing", event_type="dispute_escalated",
            actor="accord", tier="human_appeal", rearm=True, details={"why": "split_decision"},
        )  # fmt: skip
        assert disputes.show_within(conn, opened.dispute_id) == moved
    due = frozen_clock.now() + timedelta(hours=4)
    assert (moved.status, moved.tier, moved.party_escalated) == ("appealing", "human_appeal", False)
    assert moved.record.escalation_deadline == isoformat(due)
    with db.read() as conn:
        armed = armed_for(conn, DISPUTE_TIER, opened.dispute_id)
    assert armed is not None
    assert (armed.tier, armed.due_at) == ("human_appeal", due)


def test_a_reason_longer_than_the_limit_is_refused_and_nothing_is_written(
    disputes: Disputes, filing: File, db: Database
) -> None:
    opened = disputes.open(filing())
    before = _entries(db)
    with pytest.raises(ValidationError) as caught:
        disputes.withdraw(opened.dispute_id, by="agent-a", reason="x" * 5000)
    assert caught.value.code == "limits.exceeded"
    assert _entries(db) == before
