"""Arming, cancelling and re-arming deadlines inside the caller's write transaction.

At most one deadline per (kind, subject) is armed at a time: :func:`arm` refuses a second,
:func:`rearm` replaces the armed one (a subject's clock restarts when it moves on, R4).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Connection, bindparam, insert, select, update

from accord.clock import isoformat
from accord.deadlines.deadline import Deadline, DeadlineState, deadline_from_row, deadline_row
from accord.errors import AccordError, ValidationError
from accord.ids import new_id
from accord.store.driver_query import DriverQuery
from accord.store.tables import deadlines
from accord.values import revised

# Built once: a decision cancels two or three deadlines, and building these statements anew
# each time (SQLAlchemy's construction and cache key) was ~7 % of a decision (issue 13).
_ARMED = DriverQuery(
    select(deadlines)
    .where(deadlines.c.kind == bindparam("kind"))
    .where(deadlines.c.subject_id == bindparam("subject_id"))
    .where(deadlines.c.state == DeadlineState.ARMED.value)
)
_CANCEL = DriverQuery(
    update(deadlines)
    .where(deadlines.c.deadline_id == bindparam("target"))
    .where(deadlines.c.state == DeadlineState.ARMED.value)
    .values(
        state=DeadlineState.CANCELLED.value,
        cancelled_at=bindparam("at"),
        version=bindparam("next_version"),
    )
)


def new_deadline(
    *, kind: str, subject_id: str, due_at: datetime, now: datetime, tier: str | None = None
) -> Deadline:
    """An armed deadline record (not yet stored); refuses bad kinds, ids and naive times."""
    _require_aware(now, "now")
    _require_aware(due_at, "due_at")
    try:
        return Deadline(
            deadline_id=new_id("ddl", now),
            kind=kind,
            subject_id=subject_id,
            tier=tier,
            due_at=due_at,
            armed_at=now,
        )
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "deadline"
        raise ValidationError(
            f"invalid deadline: {field}: {first['msg']}",
            code="deadlines.invalid",
            field=field,
            rule=str(first["msg"]),
        ) from exc


def arm(
    conn: Connection,
    *,
    kind: str,
    subject_id: str,
    due_at: datetime,
    now: datetime,
    tier: str | None = None,
) -> Deadline:
    """Arm ``subject_id``'s deadline of ``kind``; ``deadlines.already_armed`` if one is."""
    deadline = new_deadline(kind=kind, subject_id=subject_id, due_at=due_at, now=now, tier=tier)
    existing = armed_for(conn, kind, subject_id)
    if existing is not None:
        raise AccordError(
            f"{subject_id} already has an armed {kind} deadline ({existing.deadline_id}, due "
            f"{isoformat(existing.due_at)}); rearm it instead",
            code="deadlines.already_armed",
            kind=kind,
            subject_id=subject_id,
            deadline_id=existing.deadline_id,
        )
    conn.execute(insert(deadlines), [deadline_row(deadline)])
    return deadline


def arm_many(conn: Connection, armed: Sequence[Deadline]) -> None:
    """Store records from :func:`new_deadline` in one statement (subjects must be distinct
    and have nothing armed: the unique index refuses a second armed row)."""
    if armed:
        conn.execute(insert(deadlines), [deadline_row(d) for d in armed])


def cancel(conn: Connection, *, kind: str, subject_id: str, now: datetime) -> Deadline | None:
    """Cancel the armed deadline of ``kind`` for ``subject_id`` (its subject was settled
    another way); returns it as cancelled, or None when nothing was armed."""
    _require_aware(now, "now")
    existing = armed_for(conn, kind, subject_id)
    if existing is None:
        return None
    _CANCEL.execute(
        conn,
        {
            "target": existing.deadline_id,
            "at": isoformat(now),
            "next_version": existing.version + 1,
        },
    )
    return revised(
        existing, state=DeadlineState.CANCELLED, cancelled_at=now, version=existing.version + 1
    )


def rearm(
    conn: Connection,
    *,
    kind: str,
    subject_id: str,
    due_at: datetime,
    now: datetime,
    tier: str | None = None,
) -> Deadline:
    """Replace whatever is armed for ``subject_id`` by a new deadline: the clock restarts."""
    cancel(conn, kind=kind, subject_id=subject_id, now=now)
    return arm(conn, kind=kind, subject_id=subject_id, due_at=due_at, now=now, tier=tier)


def armed_for(conn: Connection, kind: str, subject_id: str) -> Deadline | None:
    """The armed deadline of ``kind`` for ``subject_id``, if any."""
    row = _ARMED.first(conn, {"kind": kind, "subject_id": subject_id})
    return None if row is None else deadline_from_row(row)


def history(conn: Connection, kind: str, subject_id: str) -> list[Deadline]:
    """Every deadline ``subject_id`` ever had of ``kind``, oldest first."""
    rows = conn.execute(
        select(deadlines)
        .where(deadlines.c.kind == kind)
        .where(deadlines.c.subject_id == subject_id)
        .order_by(deadlines.c.armed_at, deadlines.c.due_at, deadlines.c.deadline_id)
    ).mappings()
    return [deadline_from_row(row) for row in rows]


def _require_aware(moment: datetime, field: str) -> None:
    if not isinstance(moment, datetime) or moment.tzinfo is None:
        raise ValidationError(
            f"{field} must be a timezone-aware time",
            code="deadlines.invalid",
            field=field,
            rule="timezone-aware UTC",
        )
