"""Claiming due deadlines: each fired once, oldest first, by the handler of its kind."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import Connection

from accord.clock import FrozenClock
from accord.deadlines import (
    MAX_ATTEMPTS,
    Deadline,
    DeadlineState,
    DeadlineSweep,
    Handled,
    arm,
    armed_for,
    claim_due,
    history,
)
from accord.errors import SavepointLost, ValidationError
from accord.store import Database
from tests.deadlines.conftest import KIND, Recorder


def _arm(db: Database, subject: str, due: datetime, now: datetime, kind: str = KIND) -> Deadline:
    with db.write() as conn:
        return arm(conn, kind=kind, subject_id=subject, due_at=due, now=now)


def test_a_due_deadline_fires_once_and_a_future_one_waits(
    db: Database, frozen_clock: FrozenClock, recorder: Recorder
) -> None:
    now = frozen_clock.now()
    due = _arm(db, "s:due", now + timedelta(minutes=5), now)
    later = _arm(db, "s:later", now + timedelta(minutes=6), now)
    frozen_clock.advance(timedelta(minutes=5))
    at = frozen_clock.now()
    with db.write() as conn:
        claimed = claim_due(
            conn, now=at, limit=10, sweeper_id="sweeper:a", handlers={KIND: recorder}
        )
    [fired] = claimed.fired
    assert fired.deadline.deadline_id == due.deadline_id
    assert (fired.deadline.state, fired.deadline.fired_at, fired.deadline.fired_by) == (
        DeadlineState.FIRED, at, "sweeper:a"
    )  # fmt: skip
    assert (fired.deadline.outcome, fired.deadline.attempts, fired.deadline.version) == (
        "pinged", 1, 2
    )  # fmt: skip
    with db.write() as conn:
        again = claim_due(conn, now=at, limit=10, sweeper_id="sweeper:b", handlers={KIND: recorder})
        assert again.fired == again.failed == []
        [stored] = history(conn, KIND, "s:due")
        assert stored == fired.deadline
        assert armed_for(conn, KIND, "s:later") == later
    assert [d.deadline_id for d in recorder.handled] == [due.deadline_id]


def test_a_claim_takes_at_most_limit_rows_oldest_due_first(
    db: Database, frozen_clock: FrozenClock, recorder: Recorder
) -> None:
    now = frozen_clock.now()
    late = _arm(db, "s:late", now + timedelta(minutes=2), now)
    early = _arm(db, "s:early", now + timedelta(minutes=1), now)
    at = now + timedelta(minutes=3)
    for expected in (early, late):
        with db.write() as conn:
            claimed = claim_due(conn, now=at, limit=1, sweeper_id="s", handlers={KIND: recorder})
        assert [f.deadline.deadline_id for f in claimed.fired] == [expected.deadline_id]


def test_rows_of_a_kind_without_a_handler_stay_armed(
    db: Database, frozen_clock: FrozenClock, recorder: Recorder
) -> None:
    now = frozen_clock.now()
    orphan = _arm(db, "disp:1", now, now, kind="dispute_tier")
    with db.write() as conn:
        claimed = claim_due(conn, now=now, limit=10, sweeper_id="s", handlers={KIND: recorder})
        assert claimed.fired == []
        assert claim_due(conn, now=now, limit=10, sweeper_id="s", handlers={}).fired == []
        assert armed_for(conn, "dispute_tier", "disp:1") == orphan


def test_a_handler_that_names_a_next_deadline_rearms_the_subject_in_the_same_transaction(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    first = _arm(db, "s:1", now, now)

    def escalate(conn: Connection, deadline: Deadline, at: datetime) -> Handled:
        return Handled(outcome="escalated", next_due=at + timedelta(hours=1), next_tier="two")

    frozen_clock.advance(timedelta(minutes=10))
    at = frozen_clock.now()
    with db.write() as conn:
        [fired] = claim_due(conn, now=at, limit=10, sweeper_id="s", handlers={KIND: escalate}).fired
    assert fired.rearmed is not None
    assert (fired.rearmed.tier, fired.rearmed.due_at, fired.rearmed.armed_at) == (
        "two", at + timedelta(hours=1), at
    )  # fmt: skip
    with db.read() as conn:
        states = [(d.deadline_id, d.state) for d in history(conn, KIND, "s:1")]
    assert states == [
        (first.deadline_id, DeadlineState.FIRED),
        (fired.rearmed.deadline_id, DeadlineState.ARMED),
    ]


class _Exploding:
    """Arms a marker deadline (to prove its writes roll back), then fails for one subject."""

    def __init__(self, bad_subject: str) -> None:
        self.bad_subject = bad_subject
        self.calls = 0

    def __call__(self, conn: Connection, deadline: Deadline, now: datetime) -> Handled:
        self.calls += 1
        arm(conn, kind="marker", subject_id=f"marker:{deadline.subject_id}", due_at=now, now=now)
        if deadline.subject_id == self.bad_subject:
            raise RuntimeError("the subject's store is down")
        return Handled(outcome="ok")


def test_a_failing_handler_rolls_back_only_its_own_work_and_its_row_stays_armed(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    bad = _arm(db, "s:bad", now, now)
    good = _arm(db, "s:good", now + timedelta(seconds=1), now)
    handler = _Exploding("s:bad")
    at = now + timedelta(minutes=1)
    with db.write() as conn:
        claimed = claim_due(conn, now=at, limit=10, sweeper_id="s", handlers={KIND: handler})
    assert [f.deadline.deadline_id for f in claimed.fired] == [good.deadline_id]
    [failed] = claimed.failed
    assert failed.deadline.deadline_id == bad.deadline_id
    assert "the subject's store is down" in failed.error
    with db.read() as conn:
        after = armed_for(conn, KIND, "s:bad")
        assert after is not None
        assert (after.attempts, after.state) == (1, DeadlineState.ARMED)
        assert after.last_error is not None
        assert "store is down" in after.last_error
        assert armed_for(conn, "marker", "marker:s:bad") is None  # rolled back
        assert armed_for(conn, "marker", "marker:s:good") is not None  # committed


@pytest.mark.parametrize("order", [("s:bad", "s:good"), ("s:good", "s:bad")])
def test_a_failing_handlers_after_commit_callbacks_are_dropped_with_its_work(
    db: Database, frozen_clock: FrozenClock, order: tuple[str, str]
) -> None:
    now = frozen_clock.now()
    _arm(db, order[0], now, now)
    _arm(db, order[1], now + timedelta(seconds=1), now)
    notified: list[str] = []

    def handler(conn: Connection, deadline: Deadline, at: datetime) -> Handled:
        db.after_commit(conn, lambda: notified.append(deadline.subject_id))
        if deadline.subject_id == "s:bad":
            raise RuntimeError("the subject's store is down")
        return Handled(outcome="ok")

    with db.write() as conn:
        claim_due(conn, now=now + timedelta(minutes=1), limit=10, sweeper_id="s",
                  handlers={KIND: handler})
    # the batch was retried row by row: the good row's callback once (not once more for the
    # rolled-back batch attempt), the bad one's never
    assert notified == ["s:good"]


def test_a_handler_whose_transaction_is_gone_stops_the_claim_instead_of_committing_piecemeal(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    _arm(db, "s:first", now, now)
    _arm(db, "s:second", now + timedelta(seconds=1), now)

    def handler(conn: Connection, deadline: Deadline, at: datetime) -> Handled:
        conn.exec_driver_sql("ROLLBACK")  # as SQLite does by itself on a full disk
        raise RuntimeError("disk full")

    with pytest.raises(SavepointLost), db.write() as conn:
        claim_due(conn, now=now + timedelta(minutes=1), limit=10, sweeper_id="s",
                  handlers={KIND: handler})
    with db.read() as conn:  # nothing was fired, nothing recorded as failed
        for subject in ("s:first", "s:second"):
            armed = armed_for(conn, KIND, subject)
            assert armed is not None
            assert armed.attempts == 0


def test_a_sweep_tries_a_failing_row_once_and_sets_it_aside_after_max_attempts(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    _arm(db, "s:bad", now, now)
    handler = _Exploding("s:bad")
    sweep = DeadlineSweep(db, frozen_clock, {KIND: handler}, sweeper_id="sweeper:x")
    for attempt in range(1, MAX_ATTEMPTS + 1):
        report = sweep.run()
        assert report.fired == []
        assert [f.deadline.attempts for f in report.failed] == [attempt]
    with db.read() as conn:
        [row] = history(conn, KIND, "s:bad")
    assert row.state is DeadlineState.FAILED
    calls = handler.calls
    assert sweep.run().failed == []  # set aside: no longer claimed
    assert handler.calls == calls


def test_a_sweep_fires_every_due_row_in_batches(
    db: Database, frozen_clock: FrozenClock, recorder: Recorder
) -> None:
    now = frozen_clock.now()
    with db.write() as conn:
        for n in range(25):
            arm(conn, kind=KIND, subject_id=f"s:{n}", due_at=now, now=now)
    sweep = DeadlineSweep(db, frozen_clock, {KIND: recorder})
    report = sweep.run(batch=10)
    assert len(report.fired) == 25
    assert report.transactions == 4  # 10 + 10 + 5, then one that finds nothing
    assert set(recorder.counts().values()) == {1}
    assert {f.deadline.fired_by for f in report.fired} == {sweep.sweeper_id}
    assert sweep.run().fired == []


def test_a_claim_refuses_a_naive_time_and_a_non_positive_limit(
    db: Database, frozen_clock: FrozenClock, recorder: Recorder
) -> None:
    with db.write() as conn:
        with pytest.raises(ValidationError) as naive:
            claim_due(conn, now=datetime(2026, 1, 1), limit=1, sweeper_id="s",
                      handlers={KIND: recorder})  # fmt: skip
        assert naive.value.context["field"] == "now"
        with pytest.raises(ValidationError) as empty:
            claim_due(conn, now=frozen_clock.now(), limit=0, sweeper_id="s",
                      handlers={KIND: recorder})  # fmt: skip
        assert empty.value.context["field"] == "limit"
    with pytest.raises(ValidationError):
        DeadlineSweep(db, frozen_clock, {KIND: recorder}).run(batch=0)
