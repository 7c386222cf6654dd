"""A dispute's tier deadline is a row; the sweeper escalates it through the lifecycle's port."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import pytest
from sqlalchemy import Connection

from accord.app.deadline_sweep import deadline_sweep
from accord.approvals import ApprovalQueue
from accord.clock import FrozenClock
from accord.conflicts import Severity, Tier
from accord.dcp07.deadlines import DeadlineStep, first_tier
from accord.deadlines import DeadlineState, armed_for, history
from accord.deadlines.dispute_tier import (
    DISPUTE_TIER,
    DisputeAtDeadline,
    DisputeTierHandler,
    EscalateManyOnDeadline,
    arm_tier_deadline,
    cancel_tier_deadline,
    rearm_tier_deadline,
)
from accord.errors import AccordError
from accord.store import Database


@dataclass
class FakeLifecycle:
    """The lifecycle's side of the port, over a dict: records every step it is told to take."""

    disputes: dict[str, DisputeAtDeadline] = field(default_factory=dict)
    steps: list[tuple[str, DeadlineStep, datetime]] = field(default_factory=list)

    def open(self, conn: Connection, dispute_id: str, kind: str, severity: Severity,
             now: datetime) -> None:  # fmt: skip
        tier = first_tier(kind, severity)
        self.disputes[dispute_id] = DisputeAtDeadline(
            dispute_id=dispute_id, tier=tier, severity=severity, unresolved=True
        )
        arm_tier_deadline(conn, dispute_id, tier, severity, now)

    def dispute_at_deadline(self, conn: Connection, dispute_id: str) -> DisputeAtDeadline | None:
        return self.disputes.get(dispute_id)

    def apply_deadline(
        self, conn: Connection, dispute_id: str, step: DeadlineStep, now: datetime
    ) -> None:
        self.steps.append((dispute_id, step, now))
        before = self.disputes[dispute_id]
        if step.action == "escalate":
            assert step.to_tier is not None
            self.disputes[dispute_id] = before.model_copy(update={"tier": step.to_tier})
        elif step.action == "abandon":
            self.disputes[dispute_id] = before.model_copy(update={"unresolved": False})


@pytest.fixture
def lifecycle() -> FakeLifecycle:
    return FakeLifecycle()


def test_r04_unresolved_dispute_escalates_at_deadline(
    db: Database, frozen_clock: FrozenClock, lifecycle: FakeLifecycle
) -> None:
    with db.write() as conn:
        lifecycle.open(conn, "disp:1", "resource_conflict", Severity.MEDIUM, frozen_clock.now())
    sweep = deadline_sweep(db, frozen_clock, ApprovalQueue(db, frozen_clock), disputes=lifecycle)
    frozen_clock.advance(timedelta(hours=4) - timedelta(seconds=1))
    assert sweep.run().fired == []
    frozen_clock.advance(timedelta(seconds=1))
    [fired] = sweep.run().fired
    assert fired.handled.outcome == "escalated"
    assert lifecycle.disputes["disp:1"].tier is Tier.CONTEXTUAL_ARBITRATION
    assert fired.rearmed is not None  # the clock restarts at the new tier
    assert (fired.rearmed.tier, fired.rearmed.due_at) == (
        "contextual_arbitration", frozen_clock.now() + timedelta(hours=4)
    )  # fmt: skip
    assert sweep.run().fired == []  # escalated once


def test_r09_negotiation_that_fails_within_the_deadline_escalates_to_tier_2(
    db: Database, frozen_clock: FrozenClock, lifecycle: FakeLifecycle
) -> None:
    with db.write() as conn:
        lifecycle.open(conn, "disp:2", "capability_conflict", Severity.HIGH, frozen_clock.now())
    sweep = deadline_sweep(db, frozen_clock, ApprovalQueue(db, frozen_clock), disputes=lifecycle)
    frozen_clock.advance(timedelta(hours=1))
    sweep.run()
    [(dispute_id, step, _)] = lifecycle.steps
    assert (dispute_id, step.from_tier, step.to_tier) == (
        "disp:2", Tier.DIRECT_NEGOTIATION, Tier.CONTEXTUAL_ARBITRATION
    )  # fmt: skip


def test_r42_severity_deadlines_are_enforced_through_every_tier_to_abandonment(
    db: Database, frozen_clock: FrozenClock, lifecycle: FakeLifecycle
) -> None:
    """A critical dispute nobody escalates: 15 min per tier, then abandoned (R6)."""
    opened = frozen_clock.now()
    with db.write() as conn:
        lifecycle.open(conn, "disp:3", "policy_conflict", Severity.CRITICAL, opened)
    sweep = deadline_sweep(db, frozen_clock, ApprovalQueue(db, frozen_clock), disputes=lifecycle)
    outcomes = []
    for _ in range(3):
        frozen_clock.advance(timedelta(minutes=15))
        outcomes += [f.handled.outcome for f in sweep.run().fired]
    assert outcomes == ["escalated", "escalated", "abandoned"]
    assert [s.action for _, s, _ in lifecycle.steps] == ["escalate", "escalate", "abandon"]
    assert lifecycle.disputes["disp:3"].unresolved is False
    with db.read() as conn:
        rows = history(conn, DISPUTE_TIER, "disp:3")
    assert [(r.tier, r.state, r.due_at - r.armed_at) for r in rows] == [
        ("direct_negotiation", DeadlineState.FIRED, timedelta(minutes=15)),
        ("contextual_arbitration", DeadlineState.FIRED, timedelta(minutes=15)),
        ("human_appeal", DeadlineState.FIRED, timedelta(minutes=15)),
    ]
    frozen_clock.advance(timedelta(days=1))
    assert sweep.run().fired == []


def test_an_appeal_a_party_pursued_lapses_and_waits_for_people(
    db: Database, frozen_clock: FrozenClock, lifecycle: FakeLifecycle
) -> None:
    now = frozen_clock.now()
    lifecycle.disputes["disp:4"] = DisputeAtDeadline(
        dispute_id="disp:4", tier=Tier.HUMAN_APPEAL, severity=Severity.LOW, unresolved=True,
        party_escalated=True,
    )  # fmt: skip
    with db.write() as conn:
        arm_tier_deadline(conn, "disp:4", Tier.HUMAN_APPEAL, Severity.LOW, now)
    frozen_clock.advance(timedelta(hours=24))
    sweep = deadline_sweep(db, frozen_clock, ApprovalQueue(db, frozen_clock), disputes=lifecycle)
    [fired] = sweep.run().fired
    assert (fired.handled.outcome, fired.rearmed) == ("lapsed", None)
    assert lifecycle.disputes["disp:4"].unresolved is True


def test_a_party_escalating_by_hand_restarts_the_clock_at_the_new_tier(
    db: Database, frozen_clock: FrozenClock, lifecycle: FakeLifecycle
) -> None:
    with db.write() as conn:
        lifecycle.open(conn, "disp:5", "resource_conflict", Severity.LOW, frozen_clock.now())
    frozen_clock.advance(timedelta(hours=20))
    lifecycle.disputes["disp:5"] = lifecycle.disputes["disp:5"].model_copy(
        update={"tier": Tier.CONTEXTUAL_ARBITRATION, "party_escalated": True}
    )
    with db.write() as conn:
        rearm_tier_deadline(conn, "disp:5", Tier.CONTEXTUAL_ARBITRATION, Severity.LOW,
                            frozen_clock.now())  # fmt: skip
    sweep = deadline_sweep(db, frozen_clock, ApprovalQueue(db, frozen_clock), disputes=lifecycle)
    frozen_clock.advance(timedelta(hours=4))  # the first tier's 24 h would have run out here
    assert sweep.run().fired == []
    frozen_clock.advance(timedelta(hours=20))
    [fired] = sweep.run().fired
    assert fired.deadline.tier == "contextual_arbitration"


def test_a_resolved_dispute_cancels_its_deadline_and_a_stale_one_changes_nothing(
    db: Database, frozen_clock: FrozenClock, lifecycle: FakeLifecycle
) -> None:
    now = frozen_clock.now()
    with db.write() as conn:
        lifecycle.open(conn, "disp:6", "resource_conflict", Severity.HIGH, now)
        lifecycle.open(conn, "disp:7", "resource_conflict", Severity.HIGH, now)
        cancelled = cancel_tier_deadline(conn, "disp:6", now)
    assert cancelled is not None
    assert cancelled.state is DeadlineState.CANCELLED
    # disp:7 resolved without cancelling its deadline: firing it finds nothing to do
    lifecycle.disputes["disp:7"] = lifecycle.disputes["disp:7"].model_copy(
        update={"unresolved": False}
    )
    frozen_clock.advance(timedelta(hours=1))
    sweep = deadline_sweep(db, frozen_clock, ApprovalQueue(db, frozen_clock), disputes=lifecycle)
    assert [(f.deadline.subject_id, f.handled.outcome) for f in sweep.run().fired] == [
        ("disp:7", "stale")
    ]
    assert lifecycle.steps == []


def test_without_the_lifecycle_port_dispute_deadlines_stay_armed(
    db: Database, frozen_clock: FrozenClock, lifecycle: FakeLifecycle
) -> None:
    with db.write() as conn:
        lifecycle.open(conn, "disp:8", "resource_conflict", Severity.CRITICAL, frozen_clock.now())
    frozen_clock.advance(timedelta(days=1))
    sweep = deadline_sweep(db, frozen_clock, ApprovalQueue(db, frozen_clock))
    assert sweep.kinds == ["approval_timeout"]
    assert sweep.run().fired == []
    with db.read() as conn:
        assert armed_for(conn, DISPUTE_TIER, "disp:8") is not None


def test_a_read_only_accord_may_not_sweep(db: Database, frozen_clock: FrozenClock) -> None:
    with pytest.raises(AccordError) as refused:
        deadline_sweep(db, frozen_clock, ApprovalQueue(db, frozen_clock), read_only=True)
    assert refused.value.code == "accord.read_only"


@dataclass
class FakeBatchLifecycle(FakeLifecycle):
    """The batch port over the same dict: records each batch read and each batch applied."""

    reads: list[list[str]] = field(default_factory=list)
    batches: list[list[str]] = field(default_factory=list)

    def disputes_at_deadline(
        self, conn: Connection, dispute_ids: Sequence[str]
    ) -> Mapping[str, DisputeAtDeadline]:
        self.reads.append(list(dispute_ids))
        return {i: self.disputes[i] for i in dispute_ids if i in self.disputes}

    def apply_deadlines(
        self, conn: Connection, steps: Sequence[tuple[DisputeAtDeadline, DeadlineStep]],
        now: datetime,
    ) -> None:  # fmt: skip
        self.batches.append([d.dispute_id for d, _ in steps])
        for dispute, step in steps:
            self.apply_deadline(conn, dispute.dispute_id, step, now)


def test_with_a_batch_port_a_sweep_batch_of_disputes_is_read_once_and_applied_together(
    db: Database, frozen_clock: FrozenClock
) -> None:
    lifecycle = FakeBatchLifecycle()
    assert isinstance(lifecycle, EscalateManyOnDeadline)
    now = frozen_clock.now()
    with db.write() as conn:
        for n in range(1, 5):
            lifecycle.open(conn, f"disp:{n}", "resource_conflict", Severity.HIGH, now)
    # disp:2 resolved without cancelling its deadline, disp:3 is gone: both stale
    lifecycle.disputes["disp:2"] = lifecycle.disputes["disp:2"].model_copy(
        update={"unresolved": False}
    )
    del lifecycle.disputes["disp:3"]
    frozen_clock.advance(timedelta(hours=1))
    sweep = deadline_sweep(db, frozen_clock, ApprovalQueue(db, frozen_clock), disputes=lifecycle)
    fired = sweep.run().fired
    assert sorted((f.deadline.subject_id, f.handled.outcome) for f in fired) == [
        ("disp:1", "escalated"), ("disp:2", "stale"), ("disp:3", "stale"), ("disp:4", "escalated"),
    ]  # fmt: skip
    [read] = lifecycle.reads
    assert sorted(read) == ["disp:1", "disp:2", "disp:3", "disp:4"]
    [applied] = lifecycle.batches
    assert sorted(applied) == ["disp:1", "disp:4"]
    rearmed = {f.deadline.subject_id: f.rearmed for f in fired}
    assert rearmed["disp:2"] is None
    assert rearmed["disp:1"] is not None
    assert rearmed["disp:1"].tier == "contextual_arbitration"


def test_a_batch_port_is_used_for_a_lone_deadline_too(
    db: Database, frozen_clock: FrozenClock
) -> None:
    lifecycle = FakeBatchLifecycle()
    with db.write() as conn:
        lifecycle.open(conn, "disp:1", "resource_conflict", Severity.HIGH, frozen_clock.now())
    frozen_clock.advance(timedelta(hours=1))
    sweep = deadline_sweep(db, frozen_clock, ApprovalQueue(db, frozen_clock), disputes=lifecycle)
    [fired] = sweep.run().fired
    assert fired.handled.outcome == "escalated"
    assert (lifecycle.reads, lifecycle.batches) == ([["disp:1"]], [["disp:1"]])


def test_the_handler_takes_a_batch_one_by_one_through_a_port_without_batch_methods(
    db: Database, frozen_clock: FrozenClock, lifecycle: FakeLifecycle
) -> None:
    assert not isinstance(lifecycle, EscalateManyOnDeadline)
    now = frozen_clock.now()
    with db.write() as conn:
        for n in range(1, 4):
            lifecycle.open(conn, f"disp:{n}", "resource_conflict", Severity.HIGH, now)
    frozen_clock.advance(timedelta(hours=1))
    due = []
    with db.read() as conn:
        due = [armed for n in range(1, 4) if (armed := armed_for(conn, DISPUTE_TIER, f"disp:{n}"))]
    with db.write() as conn:
        handled = DisputeTierHandler(lifecycle).handle_many(conn, due, frozen_clock.now())
    assert [h.outcome for h in handled] == ["escalated"] * 3
    assert [d for d, _, _ in lifecycle.steps] == ["disp:1", "disp:2", "disp:3"]
