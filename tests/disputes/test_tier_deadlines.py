"""Stored disputes at their tier deadlines: ``accord sweep``'s sweeper escalates them once
(R4, R9), abandons them when every deadline ran out and no party escalated (R6), and lets a
party's appeal lapse instead."""

from __future__ import annotations

from datetime import timedelta

from accord.audit.auditor import verify_database
from accord.clock import FrozenClock, isoformat
from accord.dcp07.deadlines import after_deadline
from accord.deadlines import DeadlineSweep
from accord.disputes import DEADLINE_ACTOR, Disputes
from accord.ledger import Ledger, TrustRoot
from accord.store import Database
from tests.disputes.conftest import File


def test_r04_r09_an_unresolved_dispute_escalates_once_at_its_deadline_via_the_sweep(
    disputes: Disputes, filing: File, sweep: DeadlineSweep, frozen_clock: FrozenClock,
    ledger: Ledger,
) -> None:  # fmt: skip
    opened = disputes.open(filing(severity="high"))
    frozen_clock.advance(timedelta(hours=1) - timedelta(seconds=1))
    assert sweep.run().fired == []
    frozen_clock.advance(timedelta(seconds=1))
    report = sweep.run()
    assert [f.handled.outcome for f in report.fired] == ["escalated"]
    assert sweep.run().fired == []  # exactly once
    escalated = disputes.show(opened.dispute_id)
    assert (escalated.status, escalated.tier) == ("escalated", "contextual_arbitration")
    due = frozen_clock.now() + timedelta(hours=1)
    assert escalated.record.escalation_deadline == isoformat(due)
    rearmed = report.fired[0].rearmed
    assert rearmed is not None
    assert rearmed.due_at == due
    entry = ledger.get(escalated.ledger_seqs[-1])
    assert entry.event_type == "dispute_escalated"
    assert entry.record["actor"] == DEADLINE_ACTOR
    assert entry.record["details"]["by"] == "deadline"
    assert not escalated.party_escalated


def test_r06_every_deadline_running_out_abandons_the_dispute(
    disputes: Disputes, filing: File, sweep: DeadlineSweep, frozen_clock: FrozenClock
) -> None:
    opened = disputes.open(filing(severity="critical"))
    outcomes = []
    for _ in range(4):
        frozen_clock.advance(timedelta(minutes=15))
        outcomes += [f.handled.outcome for f in sweep.run().fired]
    assert outcomes == ["escalated", "escalated", "abandoned"]
    abandoned = disputes.show(opened.dispute_id)
    assert abandoned.status == "abandoned"
    assert [t.event for t in abandoned.record.timeline] == [
        "dispute_opened",
        "dispute_escalated",
        "dispute_escalated",
        "dispute_abandoned",
    ]


def test_r06_a_party_appeal_lapses_at_its_deadline_instead_of_being_abandoned(
    disputes: Disputes, filing: File, sweep: DeadlineSweep, frozen_clock: FrozenClock
) -> None:
    opened = disputes.open(filing(severity="critical"))
    disputes.escalate(opened.dispute_id, by="agent-b", to_tier="human_appeal")
    frozen_clock.advance(timedelta(minutes=15))
    assert [f.handled.outcome for f in sweep.run().fired] == ["lapsed"]
    lapsed = disputes.show(opened.dispute_id)
    assert (lapsed.status, lapsed.record.escalation_deadline) == ("appealing", None)
    assert lapsed.record.timeline[-1].event == "dispute_deadline_lapsed"


def test_a_withdrawn_dispute_is_not_escalated_by_the_sweep(
    disputes: Disputes, filing: File, sweep: DeadlineSweep, frozen_clock: FrozenClock
) -> None:
    opened = disputes.open(filing())
    disputes.withdraw(opened.dispute_id, by="agent-a")
    frozen_clock.advance(timedelta(days=2))
    assert sweep.run().fired == []
    assert disputes.show(opened.dispute_id).status == "withdrawn"


def test_a_batch_of_due_disputes_is_recorded_in_one_sweep_transaction_on_one_linear_chain(
    disputes: Disputes, filing: File, sweep: DeadlineSweep, frozen_clock: FrozenClock,
    ledger: Ledger, db: Database, trusted: TrustRoot,
) -> None:  # fmt: skip
    """Escalations (R4), an abandonment (R6), a lapsed appeal and a withdrawn dispute, all
    due in one sweep batch: each recorded once, each §4 record chained to the entry before
    its own, and the whole database verifies."""
    high = [disputes.open(filing(severity="high", complainant=f"agent-{n}")) for n in range(3)]
    at_appeal = disputes.open(filing(severity="critical", complainant="agent-x"))
    appealed = disputes.open(filing(severity="high", complainant="agent-y"))
    withdrawn = disputes.open(filing(severity="high", complainant="agent-z"))
    disputes.withdraw(withdrawn.dispute_id, by="agent-z")
    for _ in range(2):  # the critical one climbs to human appeal (15 min a tier)
        frozen_clock.advance(timedelta(minutes=15))
        sweep.run()
    disputes.escalate(appealed.dispute_id, by="agent-b", to_tier="human_appeal")
    size = ledger.size()
    frozen_clock.advance(timedelta(hours=1))  # the highs' first 1 h, the appeals' deadlines
    report = sweep.run()
    assert report.transactions == 2  # one batch, then one finding nothing
    outcomes = {f.deadline.subject_id: f.handled.outcome for f in report.fired}
    assert outcomes == {
        **{d.dispute_id: "escalated" for d in high},
        at_appeal.dispute_id: "abandoned",
        appealed.dispute_id: "lapsed",
    }
    assert ledger.size() == size + 5
    for seq in range(size + 1, size + 6):
        entry = ledger.get(seq)
        previous = ledger.get(seq - 1)
        assert entry.record["dispute_record"]["prev_hash"] == previous.entry_hash
        shown = disputes.show(entry.record["dispute_id"])
        assert shown.ledger_seqs[-1] == seq
        assert shown.record.timeline[-1].event == entry.event_type
    assert [e.event for e in disputes.show(withdrawn.dispute_id).record.timeline] == [
        "dispute_opened", "dispute_withdrawn",
    ]  # fmt: skip
    assert sweep.run().fired == []
    verify_database(db, trusted)


def test_the_port_reads_a_dispute_again_when_handed_one_it_did_not_read(
    disputes: Disputes, filing: File, frozen_clock: FrozenClock, db: Database
) -> None:
    opened = disputes.open(filing(severity="high"))
    port = disputes.deadlines
    frozen_clock.advance(timedelta(hours=1))
    now = frozen_clock.now()
    with db.write() as conn:
        [(dispute_id, read)] = port.disputes_at_deadline(conn, [opened.dispute_id]).items()
        bare = read.model_copy(update={"stored": None})
        step = after_deadline(read.tier, read.severity, party_escalated=False, now=now)
        port.apply_deadlines(conn, [(bare, step)], now)
    assert dispute_id == opened.dispute_id
    assert disputes.show(opened.dispute_id).tier == "contextual_arbitration"
