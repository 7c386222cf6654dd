"""A party's steps on a stored dispute: evidence, escalation (R17), withdrawal; final
statuses take nothing more (R6); every step is a signed R30 event in the ledger."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accord.clock import FrozenClock, isoformat
from accord.dcp07 import record_document, verify_signed
from accord.deadlines import armed_for
from accord.deadlines.dispute_tier import DISPUTE_TIER
from accord.disputes import Disputes
from accord.errors import AccordError, IllegalTransition, ValidationError
from accord.ledger import Ledger
from accord.store import Database
from tests.disputes.conftest import File, evidence


def test_r33_submitted_evidence_is_hashed_timestamped_and_a_mismatch_refused(
    disputes: Disputes, filing: File, frozen_clock: FrozenClock, ledger: Ledger
) -> None:
    opened = disputes.open(filing())
    frozen_clock.advance(timedelta(minutes=5))
    added = disputes.submit_evidence(opened.dispute_id, evidence(2), by="agent-b")
    item = added.record.evidence[-1]
    assert (item.submitted_by, item.submitted_at) == ("agent-b", isoformat(frozen_clock.now()))
    entry = ledger.get(added.ledger_seqs[-1])
    assert entry.event_type == "dispute_evidence_submitted"
    assert entry.record["details"]["evidence"][0]["content_hash"] == item.content_hash
    with pytest.raises(ValidationError) as caught:
        disputes.submit_evidence(
            opened.dispute_id, evidence(3, content_hash="sha256:" + "1" * 64), by="agent-a"
        )
    assert caught.value.context["requirement"] == "R33"
    with pytest.raises(ValidationError) as outsider:
        disputes.submit_evidence(opened.dispute_id, evidence(4), by="agent-z")
    assert outsider.value.code == "disputes.not_a_party"
    assert len(disputes.show(opened.dispute_id).record.evidence) == 2


def test_r17_any_party_may_go_to_human_appeal_at_any_time_and_the_clock_restarts(
    disputes: Disputes, filing: File, frozen_clock: FrozenClock, db: Database
) -> None:
    opened = disputes.open(filing())
    frozen_clock.advance(timedelta(hours=1))
    appealed = disputes.escalate(opened.dispute_id, by="agent-b", to_tier="human_appeal")
    assert (appealed.status, appealed.tier, appealed.party_escalated) == (
        "appealing",
        "human_appeal",
        True,
    )
    due = frozen_clock.now() + timedelta(hours=4)
    assert appealed.record.escalation_deadline == isoformat(due)
    with db.read() as conn:
        armed = armed_for(conn, DISPUTE_TIER, opened.dispute_id)
    assert armed is not None
    assert (armed.tier, armed.due_at) == ("human_appeal", due)
    with pytest.raises(ValidationError) as caught:
        disputes.escalate(opened.dispute_id, by="agent-a")
    assert caught.value.context["requirement"] == "R38"


def test_r38_a_party_escalates_one_tier_at_a_time_by_default_never_down(
    disputes: Disputes, filing: File
) -> None:
    opened = disputes.open(filing())
    up = disputes.escalate(opened.dispute_id, by="agent-a")
    assert (up.status, up.tier) == ("escalated", "contextual_arbitration")
    with pytest.raises(ValidationError) as caught:
        disputes.escalate(opened.dispute_id, by="agent-a", to_tier="direct_negotiation")
    assert caught.value.context["requirement"] == "R17"
    with pytest.raises(ValidationError):
        disputes.escalate(opened.dispute_id, by="agent-z")


def test_the_complainant_withdraws_its_dispute_and_its_deadline_is_cancelled(
    disputes: Disputes, filing: File, db: Database
) -> None:
    opened = disputes.open(filing())
    with pytest.raises(ValidationError) as caught:
        disputes.withdraw(opened.dispute_id, by="agent-b")
    assert caught.value.code == "disputes.not_complainant"
    withdrawn = disputes.withdraw(opened.dispute_id, by="agent-a", reason="settled offline")
    assert withdrawn.status == "withdrawn"
    assert withdrawn.record.escalation_deadline is None
    with db.read() as conn:
        assert armed_for(conn, DISPUTE_TIER, opened.dispute_id) is None


def test_r06_a_final_dispute_refuses_every_further_step(disputes: Disputes, filing: File) -> None:
    opened = disputes.open(filing())
    disputes.withdraw(opened.dispute_id, by="agent-a")
    with pytest.raises(IllegalTransition) as caught:
        disputes.withdraw(opened.dispute_id, by="agent-a")
    assert caught.value.context["rule"] == "R6"
    for step in (
        lambda: disputes.escalate(opened.dispute_id, by="agent-a"),
        lambda: disputes.submit_evidence(opened.dispute_id, evidence(2), by="agent-a"),
    ):
        with pytest.raises(AccordError) as refused:
            step()
        assert refused.value.context["requirement"] == "R6"
    assert [t.event for t in disputes.show(opened.dispute_id).record.timeline] == [
        "dispute_opened",
        "dispute_withdrawn",
    ]


def test_every_step_re_signs_the_record_chained_to_the_entry_before_its_own(
    disputes: Disputes, filing: File, ledger: Ledger
) -> None:
    opened = disputes.open(filing())
    disputes.submit_evidence(opened.dispute_id, evidence(2), by="agent-b")
    last = disputes.escalate(opened.dispute_id, by="agent-a")
    seqs = last.ledger_seqs
    assert len(seqs) == 3
    for seq in seqs:
        entry = ledger.get(seq)
        before = ledger.get(seq - 1) if seq > 1 else None
        record = entry.record["dispute_record"]
        assert record["prev_hash"] == (before.entry_hash if before else "GENESIS")
    verify_signed(last.record, ledger.signer.public_key)
    assert ledger.get(seqs[-1]).record["dispute_record"] == record_document(last.record)


def test_an_unknown_dispute_is_not_found(disputes: Disputes) -> None:
    with pytest.raises(AccordError) as caught:
        disputes.show("disp:00000000-0000-7000-8000-000000000000")
    assert caught.value.code == "disputes.not_found"
