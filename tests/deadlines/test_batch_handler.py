"""A batch handler gets the consecutive due rows of its kind in one call; if that call
raises, its work is rolled back and the rows are handled one by one."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import Connection

from accord.clock import FrozenClock
from accord.deadlines import (
    BatchDeadlineHandler,
    Deadline,
    DeadlineState,
    Handled,
    arm,
    armed_for,
    claim_due,
    history,
)
from accord.store import Database
from tests.deadlines.conftest import KIND, Recorder


class Batching:
    """Records each call (``many`` or ``one``) and arms a marker per row it handles, so a
    rolled-back call leaves no marker; ``bad_subject`` makes any call that holds it raise."""

    def __init__(self, bad_subject: str | None = None, *, short: bool = False) -> None:
        self.bad_subject = bad_subject
        self.short = short
        self.calls: list[tuple[str, list[str]]] = []

    def __call__(self, conn: Connection, deadline: Deadline, now: datetime) -> Handled:
        self.calls.append(("one", [deadline.subject_id]))
        return self._handle(conn, deadline, now)

    def handle_many(
        self, conn: Connection, due: Sequence[Deadline], now: datetime
    ) -> list[Handled]:
        self.calls.append(("many", [d.subject_id for d in due]))
        handled = [self._handle(conn, d, now) for d in due]
        return handled[:-1] if self.short else handled

    def _handle(self, conn: Connection, deadline: Deadline, now: datetime) -> Handled:
        arm(conn, kind="marker", subject_id=f"m:{deadline.subject_id}", due_at=now, now=now)
        if deadline.subject_id == self.bad_subject:
            raise RuntimeError("the subject's store is down")
        return Handled(outcome="batched", next_due=now + timedelta(hours=1), next_tier="t2")


def _arm_all(db: Database, subjects: Sequence[tuple[str, str]], now: datetime) -> None:
    with db.write() as conn:
        for offset, (kind, subject) in enumerate(subjects):
            due = now + timedelta(seconds=offset)
            arm(conn, kind=kind, subject_id=subject, due_at=due, now=now)


def test_a_batch_handler_is_a_deadline_handler_with_handle_many() -> None:
    assert isinstance(Batching(), BatchDeadlineHandler)
    assert not isinstance(Recorder(), BatchDeadlineHandler)


def test_consecutive_rows_of_a_kind_go_to_its_batch_handler_in_one_call_in_due_order(
    db: Database, frozen_clock: FrozenClock, recorder: Recorder
) -> None:
    now = frozen_clock.now()
    order = [("batched", "a"), ("batched", "b"), (KIND, "x"), ("batched", "c"), ("batched", "d")]
    _arm_all(db, order, now)
    batching = Batching()
    at = now + timedelta(minutes=1)
    with db.write() as conn:
        claimed = claim_due(conn, now=at, limit=10, sweeper_id="s",
                            handlers={"batched": batching, KIND: recorder})  # fmt: skip
    assert batching.calls == [("many", ["a", "b"]), ("many", ["c", "d"])]
    assert [f.deadline.subject_id for f in claimed.fired] == ["a", "b", "x", "c", "d"]
    assert [f.handled.outcome for f in claimed.fired] == ["batched"] * 2 + ["pinged"] + [
        "batched"
    ] * 2
    with db.read() as conn:
        for subject in "abcd":
            fired, rearmed = history(conn, "batched", subject)
            assert (fired.state, fired.outcome, fired.fired_by) == (
                DeadlineState.FIRED,
                "batched",
                "s",
            )
            assert (rearmed.state, rearmed.tier) == (DeadlineState.ARMED, "t2")
            assert armed_for(conn, "marker", f"m:{subject}") is not None


def test_a_lone_row_of_a_batch_kind_is_handled_by_a_plain_call(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    _arm_all(db, [("batched", "a")], now)
    batching = Batching()
    with db.write() as conn:
        claimed = claim_due(conn, now=now, limit=10, sweeper_id="s", handlers={"batched": batching})
    assert batching.calls == [("one", ["a"])]
    assert [f.handled.outcome for f in claimed.fired] == ["batched"]


def test_a_raising_batch_call_is_rolled_back_and_its_rows_handled_one_by_one(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    _arm_all(db, [("batched", "a"), ("batched", "bad"), ("batched", "c")], now)
    batching = Batching(bad_subject="bad")
    at = now + timedelta(minutes=1)
    with db.write() as conn:
        claimed = claim_due(conn, now=at, limit=10, sweeper_id="s", handlers={"batched": batching})
    assert batching.calls == [
        ("many", ["a", "bad", "c"]),
        ("one", ["a"]),
        ("one", ["bad"]),
        ("one", ["c"]),
    ]
    assert [f.deadline.subject_id for f in claimed.fired] == ["a", "c"]
    [failed] = claimed.failed
    assert failed.deadline.subject_id == "bad"
    with db.read() as conn:
        assert armed_for(conn, "marker", "m:bad") is None  # its work rolled back
        assert armed_for(conn, "marker", "m:a") is not None  # kept once, from the plain call
        still = armed_for(conn, "batched", "bad")
        assert still is not None
        assert still.attempts == 1


def test_a_batch_handler_answering_the_wrong_number_of_rows_falls_back_to_plain_calls(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    _arm_all(db, [("batched", "a"), ("batched", "b")], now)
    batching = Batching(short=True)
    with db.write() as conn:
        claimed = claim_due(conn, now=now + timedelta(minutes=1), limit=10, sweeper_id="s",
                            handlers={"batched": batching})  # fmt: skip
    assert [kind for kind, _ in batching.calls] == ["many", "one", "one"]
    assert [f.deadline.subject_id for f in claimed.fired] == ["a", "b"]
    assert claimed.failed == []
