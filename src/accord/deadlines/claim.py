"""Claiming due deadlines and firing each exactly once, in the caller's write transaction.

The claim selects ``armed`` rows whose ``due_at`` has passed, oldest first, ``FOR UPDATE SKIP
LOCKED`` on PostgreSQL (rows another transaction holds are left to it) — on SQLite the write
transaction itself is the single writer. Each row is handled inside a savepoint by the
handler registered for its kind and marked ``fired`` with compare-and-set on its version, so
a row fires once however many sweepers race; a handler that raises rolls back its own work
only, and its row stays armed (``attempts`` and ``last_error`` recorded) until
:data:`~accord.deadlines.deadline.MAX_ATTEMPTS` is reached and it is set aside as ``failed``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Connection, select, update

from accord.clock import isoformat
from accord.deadlines.deadline import MAX_ATTEMPTS, Deadline, DeadlineState, deadline_from_row
from accord.deadlines.handler import Handled, Handlers
from accord.deadlines.schedule import arm
from accord.errors import AccordError, ValidationError
from accord.log import get_logger
from accord.store.tables import deadlines

log = get_logger("accord.deadlines")


@dataclass(frozen=True)
class FiredDeadline:
    """A deadline as it was fired, what its handler did, and the deadline it re-armed."""

    deadline: Deadline
    handled: Handled
    rearmed: Deadline | None = None


@dataclass(frozen=True)
class FailedDeadline:
    """A due deadline whose handler raised; ``deadline`` shows attempts and state after it."""

    deadline: Deadline
    error: str


@dataclass
class Claimed:
    """What one claim did."""

    fired: list[FiredDeadline] = field(default_factory=list)
    failed: list[FailedDeadline] = field(default_factory=list)


def claim_due(
    conn: Connection,
    *,
    now: datetime,
    limit: int,
    sweeper_id: str,
    handlers: Handlers,
    skip: Collection[str] = (),
) -> Claimed:
    """Fire up to ``limit`` due deadlines of the kinds ``handlers`` knows, oldest first.

    ``skip`` names deadline ids to leave alone (those that already failed in this sweep).
    """
    if now.tzinfo is None:
        raise ValidationError(
            "a sweep needs a timezone-aware time", field="now", rule="timezone-aware UTC"
        )
    if limit < 1:
        raise ValidationError("limit must be a positive number of rows", field="limit", rule=">= 1")
    claimed = Claimed()
    if not handlers:
        return claimed
    query = (
        select(deadlines)
        .where(deadlines.c.state == DeadlineState.ARMED.value)
        .where(deadlines.c.due_at <= isoformat(now))
        .where(deadlines.c.kind.in_(sorted(handlers)))
        .order_by(deadlines.c.due_at, deadlines.c.deadline_id)
        .limit(limit)
    )
    if skip:
        query = query.where(deadlines.c.deadline_id.not_in(sorted(skip)))
    if conn.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    for row in conn.execute(query).mappings().all():
        due = deadline_from_row(row)
        try:
            with conn.begin_nested():
                claimed.fired.append(_fire(conn, due, now, sweeper_id, handlers))
        except Exception as exc:  # a handler's failure must not stop the other deadlines
            claimed.failed.append(_record_failure(conn, due, exc))
    return claimed


def _fire(
    conn: Connection, due: Deadline, now: datetime, sweeper_id: str, handlers: Handlers
) -> FiredDeadline:
    handled = handlers[due.kind](conn, due, now)
    if not isinstance(handled, Handled):
        raise TypeError(f"the {due.kind} handler returned {handled!r}, not a Handled")
    result = conn.execute(
        update(deadlines)
        .where(deadlines.c.deadline_id == due.deadline_id)
        .where(deadlines.c.state == DeadlineState.ARMED.value)
        .where(deadlines.c.version == due.version)
        .values(
            state=DeadlineState.FIRED.value,
            fired_at=isoformat(now),
            fired_by=sweeper_id,
            outcome=handled.outcome,
            attempts=due.attempts + 1,
            last_error=None,
            version=due.version + 1,
        )
    )
    if result.rowcount != 1:  # never under the writer lock; refuse rather than fire twice
        raise AccordError(
            f"deadline {due.deadline_id} changed while it was being fired",
            code="deadlines.conflict",
            deadline_id=due.deadline_id,
        )
    fired = due.model_copy(
        update={
            "state": DeadlineState.FIRED,
            "fired_at": now,
            "fired_by": sweeper_id,
            "outcome": handled.outcome,
            "attempts": due.attempts + 1,
            "last_error": None,
            "version": due.version + 1,
        }
    )
    rearmed = None
    if handled.next_due is not None:
        rearmed = arm(
            conn,
            kind=due.kind,
            subject_id=due.subject_id,
            due_at=handled.next_due,
            now=now,
            tier=handled.next_tier,
        )
    return FiredDeadline(fired, handled, rearmed)


def _record_failure(conn: Connection, due: Deadline, exc: Exception) -> FailedDeadline:
    attempts = due.attempts + 1
    state = DeadlineState.FAILED if attempts >= MAX_ATTEMPTS else DeadlineState.ARMED
    error = exc.message if isinstance(exc, AccordError) else repr(exc)
    conn.execute(
        update(deadlines)
        .where(deadlines.c.deadline_id == due.deadline_id)
        .where(deadlines.c.version == due.version)
        .values(
            attempts=attempts, last_error=error[:2000], state=state.value, version=due.version + 1
        )
    )
    log.error(
        "deadline.handler_failed",
        deadline_id=due.deadline_id,
        kind=due.kind,
        subject_id=due.subject_id,
        attempts=attempts,
        error=error,
    )
    after = due.model_copy(
        update={
            "attempts": attempts,
            "last_error": error,
            "state": state,
            "version": due.version + 1,
        }
    )
    return FailedDeadline(after, error)
