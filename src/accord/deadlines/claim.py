"""Claiming due deadlines and firing each exactly once, in the caller's write transaction.

The claim selects ``armed`` rows whose ``due_at`` has passed, oldest first, ``FOR UPDATE SKIP
LOCKED`` on PostgreSQL (rows another transaction holds are left to it) — on SQLite the write
transaction itself is the single writer. Each row is handled by the handler registered for
its kind, the batch under one savepoint (row by row, a savepoint each, if a handler raised,
so handlers run again after their work is rolled back: they keep no state outside the
transaction); consecutive rows of a kind whose handler is a
:class:`~accord.deadlines.handler.BatchDeadlineHandler` go to it in one call. Then the
batch's rows are marked ``fired`` (one statement for the batch, each row by its key and only
if still ``armed``: a count that differs rolls everything back) and
the deadlines the handlers asked for are armed, so a row fires once however many sweepers
race. A handler that raises rolls back its own work only, and its row stays armed
(``attempts`` and ``last_error`` recorded) until
:data:`~accord.deadlines.deadline.MAX_ATTEMPTS` is reached and it is set aside as ``failed``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Connection, bindparam, select, update

from accord.clock import isoformat
from accord.deadlines.deadline import MAX_ATTEMPTS, Deadline, DeadlineState, deadline_from_row
from accord.deadlines.handler import BatchDeadlineHandler, Handled, Handlers
from accord.deadlines.schedule import arm_many, new_deadline
from accord.errors import AccordError, SavepointLost, ValidationError
from accord.log import get_logger
from accord.store.database import savepoint
from accord.store.tables import deadlines
from accord.values import revised

log = get_logger("accord.deadlines")
_MARK_FIRED = (
    update(deadlines)
    .where(deadlines.c.deadline_id == bindparam("fired_id"))
    .where(deadlines.c.state == DeadlineState.ARMED.value)
    .values(
        state=DeadlineState.FIRED.value,
        fired_at=bindparam("fired_at_"),
        fired_by=bindparam("fired_by_"),
        outcome=bindparam("fired_outcome"),
        attempts=deadlines.c.attempts + 1,
        last_error=None,
        version=deadlines.c.version + 1,
    )
)


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
    due_rows = [deadline_from_row(row) for row in conn.execute(query).mappings().all()]
    pending = _handle_batch(conn, due_rows, now, handlers)
    if pending is None:  # a handler failed: again, one savepoint per row
        pending = []
        for due in due_rows:
            try:
                with savepoint(conn):
                    outcome = _handle(conn, due, now, handlers)
            except SavepointLost:
                raise  # the transaction itself is gone: nothing after this may commit
            except Exception as exc:  # a handler's failure must not stop the others
                claimed.failed.append(_record_failure(conn, due, exc))
                continue
            pending.append(outcome)
    _mark_fired(conn, [(due, done) for due, done, _ in pending], now, sweeper_id)
    arm_many(conn, [rearm for _, _, rearm in pending if rearm is not None])
    for due, handled, rearm in pending:
        claimed.fired.append(
            FiredDeadline(_as_fired(due, handled, now, sweeper_id), handled, rearm)
        )
    return claimed


def _handle_batch(
    conn: Connection, due_rows: list[Deadline], now: datetime, handlers: Handlers
) -> list[tuple[Deadline, Handled, Deadline | None]] | None:
    """Every row's handler under one savepoint (one round trip per batch, not two per row);
    None, with the batch's work rolled back, if any handler raised."""
    pending: list[tuple[Deadline, Handled, Deadline | None]] = []
    try:
        with savepoint(conn):
            for run in _runs_of_one_kind(due_rows):
                handler = handlers[run[0].kind]
                if len(run) > 1 and isinstance(handler, BatchDeadlineHandler):
                    pending.extend(_handle_many(conn, handler, run, now))
                else:
                    pending.extend(_handle(conn, due, now, handlers) for due in run)
    except SavepointLost:
        raise
    except Exception:  # retried row by row, so only the failing handler's work is lost
        return None
    return pending


def _runs_of_one_kind(due_rows: list[Deadline]) -> list[list[Deadline]]:
    """The rows in claim order, cut wherever the kind changes (so handling each run in one
    call keeps the order rows are handled in)."""
    runs: list[list[Deadline]] = []
    for due in due_rows:
        if runs and runs[-1][0].kind == due.kind:
            runs[-1].append(due)
        else:
            runs.append([due])
    return runs


def _handle_many(
    conn: Connection, handler: BatchDeadlineHandler, run: Sequence[Deadline], now: datetime
) -> list[tuple[Deadline, Handled, Deadline | None]]:
    """Run a batch handler on rows of its kind: one :class:`Handled` per row, in order."""
    outcomes = handler.handle_many(conn, run, now)
    if not isinstance(outcomes, list) or len(outcomes) != len(run):
        raise TypeError(
            f"the {run[0].kind} handler's handle_many returned {outcomes!r}, not a list of "
            f"{len(run)} Handled"
        )
    return [_outcome(due, handled, now) for due, handled in zip(run, outcomes, strict=True)]


def _handle(
    conn: Connection, due: Deadline, now: datetime, handlers: Handlers
) -> tuple[Deadline, Handled, Deadline | None]:
    """Run ``due``'s handler; the deadline it re-arms is built (validated) here, stored later."""
    return _outcome(due, handlers[due.kind](conn, due, now), now)


def _outcome(
    due: Deadline, handled: Handled, now: datetime
) -> tuple[Deadline, Handled, Deadline | None]:
    if not isinstance(handled, Handled):
        raise TypeError(f"the {due.kind} handler returned {handled!r}, not a Handled")
    rearm = None
    if handled.next_due is not None:
        rearm = new_deadline(
            kind=due.kind,
            subject_id=due.subject_id,
            due_at=handled.next_due,
            now=now,
            tier=handled.next_tier,
        )
    return due, handled, rearm


def _mark_fired(
    conn: Connection, handled: list[tuple[Deadline, Handled]], now: datetime, sweeper_id: str
) -> None:
    """One statement for the batch, each row by its key; every row must still be armed (it
    is locked). (By key, not ``deadline_id IN (...)``: SQLite without table statistics
    answered that through the state index, reading every armed row.)"""
    if not handled:
        return
    ids = [due.deadline_id for due, _ in handled]
    at = isoformat(now)
    result = conn.execute(
        _MARK_FIRED,
        [
            {"fired_id": due.deadline_id, "fired_outcome": done.outcome, "fired_at_": at,
             "fired_by_": sweeper_id}
            for due, done in handled
        ],
    )  # fmt: skip
    if result.rowcount != len(ids):  # never under the writer lock; refuse to fire twice
        raise AccordError(
            f"{len(ids) - result.rowcount} deadline(s) changed while being fired "
            "(a handler must not cancel or re-arm its own deadline: it returns next_due)",
            code="deadlines.conflict",
            deadline_ids=ids,
        )


def _as_fired(due: Deadline, handled: Handled, now: datetime, sweeper_id: str) -> Deadline:
    return revised(
        due,
        state=DeadlineState.FIRED,
        fired_at=now,
        fired_by=sweeper_id,
        outcome=handled.outcome,
        attempts=due.attempts + 1,
        last_error=None,
        version=due.version + 1,
    )


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
    after = revised(due, attempts=attempts, last_error=error, state=state, version=due.version + 1)
    return FailedDeadline(after, error)
