"""Arming, cancelling and re-arming deadline rows."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from accord.clock import FrozenClock
from accord.deadlines import DeadlineState, arm, armed_for, cancel, history, rearm
from accord.errors import AccordError, ValidationError
from accord.store import Database
from tests.deadlines.conftest import KIND


def test_an_armed_deadline_is_stored_with_its_subject_tier_and_due_time(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    with db.write() as conn:
        armed = arm(conn, kind=KIND, subject_id="s:1", due_at=now + timedelta(hours=1), now=now,
                    tier="direct_negotiation")  # fmt: skip
    with db.read() as conn:
        stored = armed_for(conn, KIND, "s:1")
    assert stored == armed
    assert (stored.state, stored.tier, stored.attempts, stored.version) == (
        DeadlineState.ARMED, "direct_negotiation", 0, 1
    )  # fmt: skip
    assert stored.due_at == now + timedelta(hours=1)
    assert stored.deadline_id.startswith("ddl:")


def test_a_second_armed_deadline_for_the_same_subject_is_refused(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    with db.write() as conn:
        first = arm(conn, kind=KIND, subject_id="s:1", due_at=now, now=now)
    with pytest.raises(AccordError) as refused, db.write() as conn:
        arm(conn, kind=KIND, subject_id="s:1", due_at=now, now=now)
    assert refused.value.code == "deadlines.already_armed"
    assert refused.value.context["deadline_id"] == first.deadline_id
    with db.write() as conn:  # another kind for the same subject is its own deadline
        arm(conn, kind="other_kind", subject_id="s:1", due_at=now, now=now)


def test_cancel_disarms_and_reports_nothing_when_nothing_is_armed(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    with db.write() as conn:
        arm(conn, kind=KIND, subject_id="s:1", due_at=now, now=now)
        cancelled = cancel(conn, kind=KIND, subject_id="s:1", now=now)
        assert cancel(conn, kind=KIND, subject_id="s:1", now=now) is None
    assert cancelled is not None
    assert (cancelled.state, cancelled.cancelled_at, cancelled.version) == (
        DeadlineState.CANCELLED, now, 2
    )  # fmt: skip
    with db.read() as conn:
        assert armed_for(conn, KIND, "s:1") is None
        assert [d.state for d in history(conn, KIND, "s:1")] == [DeadlineState.CANCELLED]


def test_rearm_restarts_the_clock_and_keeps_the_old_deadline_as_cancelled(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    with db.write() as conn:
        old = arm(conn, kind=KIND, subject_id="s:1", due_at=now + timedelta(hours=4), now=now,
                  tier="direct_negotiation")  # fmt: skip
    frozen_clock.advance(timedelta(hours=1))
    later = frozen_clock.now()
    with db.write() as conn:
        new = rearm(conn, kind=KIND, subject_id="s:1", due_at=later + timedelta(hours=4),
                    now=later, tier="contextual_arbitration")  # fmt: skip
    assert new.deadline_id != old.deadline_id
    assert new.due_at == later + timedelta(hours=4)
    with db.read() as conn:
        assert armed_for(conn, KIND, "s:1") == new
        states = {d.deadline_id: d.state for d in history(conn, KIND, "s:1")}
    assert states == {
        old.deadline_id: DeadlineState.CANCELLED,
        new.deadline_id: DeadlineState.ARMED,
    }


def test_rearm_arms_a_subject_that_had_nothing_armed(
    db: Database, frozen_clock: FrozenClock
) -> None:
    now = frozen_clock.now()
    with db.write() as conn:
        armed = rearm(conn, kind=KIND, subject_id="s:9", due_at=now, now=now)
        assert armed_for(conn, KIND, "s:9") == armed


@pytest.mark.parametrize(
    ("field", "changes"),
    [
        ("kind", {"kind": "Not A Kind"}),
        ("kind", {"kind": ""}),
        ("subject_id", {"subject_id": "x" * 65}),
        ("due_at", {"due_at": datetime(2026, 1, 1)}),
        ("now", {"now": datetime(2026, 1, 1)}),
    ],
)
def test_bad_deadlines_are_refused_naming_the_field(
    db: Database, frozen_clock: FrozenClock, field: str, changes: dict[str, object]
) -> None:
    now = frozen_clock.now()
    arguments: dict[str, object] = {"kind": KIND, "subject_id": "s:1", "due_at": now, "now": now}
    with pytest.raises(ValidationError) as refused, db.write() as conn:
        arm(conn, **{**arguments, **changes})  # type: ignore[arg-type]
    assert refused.value.context["field"] == field
    with db.read() as conn:
        assert history(conn, KIND, "s:1") == []
