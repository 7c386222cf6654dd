"""The queue's §12.4 timeouts are rows of the shared deadline mechanism."""

from __future__ import annotations

from datetime import timedelta

from alembic import command
from sqlalchemy import delete

from accord.app.deadline_sweep import deadline_sweep
from accord.approvals import (
    ApprovalQueue,
    ApprovalStatus,
    DenyAfter,
    EscalationChain,
    EscalationStep,
    Reviewer,
    WaitForever,
)
from accord.approvals.timeout_handler import APPROVAL_TIMEOUT
from accord.clock import FrozenClock
from accord.deadlines import DeadlineState, armed_for, history
from accord.store import Database, open_database
from accord.store.migrate import alembic_config
from accord.store.tables import deadlines
from tests.approvals.conftest import EventLog, ask

CHAIN = EscalationChain(
    steps=(
        EscalationStep(role="lead", timeout_minutes=30),
        EscalationStep(role="director", timeout_minutes=60),
    ),
    on_chain_exhausted="deny",
)


def test_an_item_with_a_deadline_arms_one_row_due_when_the_item_is(
    queue: ApprovalQueue, db: Database
) -> None:
    item = ask(queue, policy=DenyAfter(timeout_minutes=45))
    waiting = ask(queue, policy=WaitForever())
    with db.read() as conn:
        armed = armed_for(conn, APPROVAL_TIMEOUT, item.item_id)
        assert armed is not None
        assert (armed.due_at, armed.tier) == (item.deadline, "0")
        assert history(conn, APPROVAL_TIMEOUT, waiting.item_id) == []


def test_a_decision_or_a_withdrawal_cancels_the_items_deadline(
    queue: ApprovalQueue, db: Database, alice: Reviewer
) -> None:
    decided = ask(queue, policy=DenyAfter(timeout_minutes=45))
    withdrawn = ask(queue, policy=DenyAfter(timeout_minutes=45))
    queue.decide(decided.item_id, alice, outcome="approved")
    queue.cancel(withdrawn.item_id, cancelled_by="agent:billing")
    with db.read() as conn:
        for item in (decided, withdrawn):
            [row] = history(conn, APPROVAL_TIMEOUT, item.item_id)
            assert row.state is DeadlineState.CANCELLED


def test_an_escalation_fires_the_steps_row_and_arms_the_next_steps(
    queue: ApprovalQueue, db: Database, frozen_clock: FrozenClock
) -> None:
    item = ask(queue, policy=CHAIN)
    frozen_clock.advance(timedelta(minutes=30))
    [escalated] = queue.sweep()
    with db.read() as conn:
        first, second = history(conn, APPROVAL_TIMEOUT, item.item_id)
    assert (first.state, first.outcome, first.fired_by) == (
        DeadlineState.FIRED, "escalated", queue.sweeper_id
    )  # fmt: skip
    assert (second.state, second.tier, second.due_at) == (
        DeadlineState.ARMED, "1", escalated.deadline
    )  # fmt: skip


def test_the_shared_sweep_applies_timeouts_with_the_same_events_as_the_queues_own(
    database_url: str, frozen_clock: FrozenClock
) -> None:
    def run(shared: bool) -> tuple[list[str], list[str | None]]:
        db = open_database(database_url)
        log = EventLog()
        queue = ApprovalQueue(db, frozen_clock, on_event=log)
        try:
            with db.write() as conn:  # each run starts from an empty queue
                conn.execute(delete(deadlines))
            for item in queue.pending():
                queue.cancel(item.item_id, cancelled_by="test")
            log.batches.clear()
            start = frozen_clock.now()
            ask(queue, policy=CHAIN)
            ask(queue, policy=DenyAfter(timeout_minutes=31))
            sweep = deadline_sweep(db, frozen_clock, queue)
            for minutes in (31, 91):
                at = start + timedelta(minutes=minutes)
                if shared:
                    sweep.run(now=at)
                else:
                    queue.sweep_due(now=at)
            choices = [r["choice"] for r in log.records("approval_expired")]
            return log.kinds, choices
        finally:
            db.dispose()

    own = run(shared=False)
    frozen_clock.advance(timedelta(days=1))
    assert run(shared=True) == own
    assert own == (
        ["approval_requested", "approval_requested", "approval_escalated", "approval_expired",
         "approval_expired"],
        ["deny", "deny"],
    )  # fmt: skip


def test_upgrading_a_database_arms_the_deadlines_of_items_already_waiting(
    database_url: str, frozen_clock: FrozenClock
) -> None:
    db = open_database(database_url)
    try:
        queue = ApprovalQueue(db, frozen_clock)
        item = ask(queue, policy=DenyAfter(timeout_minutes=10))
        ask(queue, policy=WaitForever())
        cfg = alembic_config()
        with db.engine.connect() as conn:  # back to before deadline rows existed
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0005_api_keys")
            conn.commit()
        db.migrate()
        with db.read() as conn:
            [armed] = conn.execute(deadlines.select()).mappings().all()
        assert (armed["subject_id"], armed["kind"], armed["state"]) == (
            item.item_id, APPROVAL_TIMEOUT, "armed"
        )  # fmt: skip
        frozen_clock.advance(timedelta(minutes=10))
        [expired] = queue.sweep()
        assert (expired.item_id, expired.status) == (item.item_id, ApprovalStatus.EXPIRED)
    finally:
        db.dispose()
