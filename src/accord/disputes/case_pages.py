"""Paged, filtered reads for the HTTP service: cases (newest first) and the approval queue
joined with each item's case (oldest first), with opaque keyset cursors.

A cursor is the last row's sort key, url-safe base64; a page of ``limit`` rows costs one
indexed range scan however deep it is (no OFFSET).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import exists, func, select, tuple_

from accord.approvals import ApprovalItem
from accord.approvals.item import ApprovalStatus
from accord.approvals.rows import item_from_row
from accord.disputes.case_store import VALID_STATUSES
from accord.errors import ValidationError
from accord.store import Database
from accord.store.tables import approval_items, case_parties, cases

MAX_PAGE = 200
T = TypeVar("T")
APPROVAL_STATUSES = tuple(s.value for s in ApprovalStatus)


@dataclass(frozen=True)
class CaseFilter:
    status: str | None = None
    kind: str | None = None
    severity: str | None = None
    tier: str | None = None
    task_type: str | None = None
    session_id: str | None = None
    agent: str | None = None


@dataclass(frozen=True)
class QueueFilter:
    status: str | None = "pending"
    risk: str | None = None
    kind: str | None = None
    severity: str | None = None
    agent: str | None = None
    case_id: str | None = None


@dataclass(frozen=True)
class QueueEntry:
    """An approval item with the case columns a reviewer filters on."""

    item: ApprovalItem
    kind: str | None
    severity: str | None
    subject: str | None
    task_type: str | None


@dataclass(frozen=True)
class Page(Generic[T]):
    rows: Sequence[T]
    next_cursor: str | None


def encode_cursor(created_at: str, row_id: str) -> str:
    raw = f"{created_at}|{row_id}".encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, str]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        created_at, row_id = base64.urlsafe_b64decode(padded).decode("utf-8").split("|", 1)
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise ValidationError(
            "invalid cursor (pass back next_cursor as given)",
            code="paging.bad_cursor",
            field="cursor",
            rule="a cursor from a previous page",
        ) from exc
    return created_at, row_id


def _check_limit(limit: int) -> None:
    if not 1 <= limit <= MAX_PAGE:
        raise ValidationError(
            f"limit must be between 1 and {MAX_PAGE}",
            code="paging.bad_limit",
            field="limit",
            rule=f"1 <= limit <= {MAX_PAGE}",
        )


def _check_one_of(field: str, value: str | None, valid: Sequence[str]) -> None:
    if value is not None and value not in valid:
        raise ValidationError(
            f"unknown {field} {value!r}; valid: {', '.join(valid)}",
            code="paging.bad_filter",
            field=field,
            rule=f"one of {', '.join(valid)}",
        )


def case_page(
    db: Database, filters: CaseFilter, *, limit: int = 50, cursor: str | None = None
) -> Page[dict[str, Any]]:
    """Cases matching ``filters``, newest first, as flat rows without the document."""
    _check_limit(limit)
    _check_one_of("status", filters.status, VALID_STATUSES)
    columns = [c for c in cases.c if c.name != "document"]
    query = select(*columns)
    for name in ("status", "kind", "severity", "tier", "task_type", "session_id"):
        value = getattr(filters, name)
        if value is not None:
            query = query.where(cases.c[name] == value)
    if filters.agent is not None:
        query = query.where(
            exists()
            .where(case_parties.c.case_id == cases.c.case_id)
            .where(case_parties.c.agent_id == filters.agent)
        )
    if cursor is not None:
        query = query.where(tuple_(cases.c.created_at, cases.c.case_id) < decode_cursor(cursor))
    query = query.order_by(cases.c.created_at.desc(), cases.c.case_id.desc()).limit(limit + 1)
    with db.read() as conn:
        rows = [dict(r._mapping) for r in conn.execute(query)]
    more = len(rows) > limit
    rows = rows[:limit]
    last = rows[-1] if more else None
    return Page(rows, encode_cursor(last["created_at"], last["case_id"]) if last else None)


def queue_page(
    db: Database, filters: QueueFilter, *, limit: int = 50, cursor: str | None = None
) -> Page[QueueEntry]:
    """Approval items with their case's kind and severity, oldest first."""
    _check_limit(limit)
    _check_one_of("status", filters.status, APPROVAL_STATUSES)
    query = select(
        approval_items.c.document,
        approval_items.c.created_at,
        approval_items.c.item_id,
        cases.c.kind,
        cases.c.severity,
        cases.c.subject,
        cases.c.task_type,
    ).select_from(approval_items.outerjoin(cases, cases.c.case_id == approval_items.c.case_id))
    if filters.status is not None:
        query = query.where(approval_items.c.status == filters.status)
    if filters.risk is not None:
        query = query.where(approval_items.c.risk == filters.risk)
    if filters.case_id is not None:
        query = query.where(approval_items.c.case_id == filters.case_id)
    if filters.kind is not None:
        query = query.where(cases.c.kind == filters.kind)
    if filters.severity is not None:
        query = query.where(cases.c.severity == filters.severity)
    if filters.agent is not None:
        query = query.where(
            exists()
            .where(case_parties.c.case_id == approval_items.c.case_id)
            .where(case_parties.c.agent_id == filters.agent)
        )
    if cursor is not None:
        query = query.where(
            tuple_(approval_items.c.created_at, approval_items.c.item_id) > decode_cursor(cursor)
        )
    query = query.order_by(approval_items.c.created_at, approval_items.c.item_id).limit(limit + 1)
    with db.read() as conn:
        rows = list(conn.execute(query).mappings())
    more = len(rows) > limit
    rows = rows[:limit]
    entries = [
        QueueEntry(
            item=item_from_row(r),
            kind=r["kind"],
            severity=r["severity"],
            subject=r["subject"],
            task_type=r["task_type"],
        )
        for r in rows
    ]
    last = rows[-1] if more else None
    return Page(entries, encode_cursor(last["created_at"], last["item_id"]) if last else None)


def case_counts(db: Database) -> list[tuple[str, str, str, int]]:
    """(kind, tier, status, count) over every case; ``kind`` is ``none`` when no conflict."""
    query = select(cases.c.kind, cases.c.tier, cases.c.status, func.count()).group_by(
        cases.c.kind, cases.c.tier, cases.c.status
    )
    with db.read() as conn:
        return [(str(r[0] or "none"), str(r[1]), str(r[2]), int(r[3])) for r in conn.execute(query)]


def queue_depth(db: Database) -> int:
    """Pending approval items."""
    query = select(func.count()).select_from(approval_items).where(
        approval_items.c.status == ApprovalStatus.PENDING.value
    )
    with db.read() as conn:
        return int(conn.execute(query).scalar_one())
