"""Stored disputes at their tier deadlines: ``accord sweep``'s sweeper escalates them once
(R4, R9), abandons them when every deadline ran out and no party escalated (R6), and lets a
party's appeal lapse instead."""

from __future__ import annotations

from datetime import timedelta

from accord.clock import FrozenClock, isoformat
from accord.deadlines import DeadlineSweep
from accord.disputes.protocol import DEADLINE_ACTOR, Disputes
from accord.ledger import Ledger
from tests.disputes.protocol.conftest import File


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
