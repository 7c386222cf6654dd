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
from datetime import datetime
from typing import Any, Generic, TypeVar

import msgspec
from pydantic import TypeAdapter
from sqlalchemy import (
    Integer,
    Select,
    String,
    and_,
    bindparam,
    case,
    exists,
    false,
    func,
    literal_column,
    or_,
    select,
    tuple_,
)
from sqlalchemy.sql.elements import BindParameter

from accord.approvals import (
    ActingDeadline,
    ApprovalItem,
    ApprovalStatus,
    TimeoutPolicy,
    acting_deadline,
    acting_deadline_of,
    item_document,
    item_from_row,
)
from accord.cases import CASE_TIER, VALID_STATUSES, case_tier_action
from accord.errors import ValidationError
from accord.store import Database
from accord.store.driver_query import DriverQuery
from accord.store.tables import approval_items, case_parties, cases, deadlines

MAX_PAGE = 200
T = TypeVar("T")
APPROVAL_STATUSES = tuple(s.value for s in ApprovalStatus)
QUEUE_SORTS = ("oldest", "newest", "deadline")
"""How the queue can be ordered: by when an item was queued, or soonest acting deadline first
(the item's own or its case tier's, whichever is sooner; items without one last)."""
MAX_PARTY_SET = 500
_NO_DEADLINE = "9999-12-31T23:59:59"


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
    tier: str | None = None
    party_in: tuple[str, ...] | None = None
    """Items of cases with a party among these agents (a department's members)."""
    sort: str = "oldest"


@dataclass(frozen=True)
class QueueEntry:
    """An approval item with the case columns a reviewer filters on."""

    item: ApprovalItem
    kind: str | None
    severity: str | None
    subject: str | None
    task_type: str | None
    acting: ActingDeadline | None = None
    """The deadline that will act on the item (its own or its case tier's, sooner wins)."""


@dataclass(frozen=True)
class QueueDocument:
    """An approval item as stored (its JSON document's top-level fields as raw JSON, not
    parsed nor validated again: it was written from a validated ``ApprovalItem``) with the
    same case columns as ``QueueEntry``."""

    document: dict[str, msgspec.Raw]
    kind: str | None
    severity: str | None
    subject: str | None
    task_type: str | None
    acting: ActingDeadline | None = None
    """As :attr:`QueueEntry.acting`."""


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
    query = case_query(filters, limit=limit, cursor=cursor)
    with db.read() as conn:
        rows = [dict(r._mapping) for r in conn.execute(query)]
    more = len(rows) > limit
    rows = rows[:limit]
    last = rows[-1] if more else None
    return Page(rows, encode_cursor(last["created_at"], last["case_id"]) if last else None)


def case_query(filters: CaseFilter, *, limit: int, cursor: str | None) -> Select[Any]:
    """The query of one :func:`case_page`: ``limit + 1`` rows (the extra one says there is
    more), read in ``(created_at, case_id)`` order from an index when filtered by status."""
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
    return query.order_by(cases.c.created_at.desc(), cases.c.case_id.desc()).limit(limit + 1)


def queue_page(
    db: Database, filters: QueueFilter, *, limit: int = 50, cursor: str | None = None
) -> Page[QueueEntry]:
    """Approval items with their case's kind and severity, in ``filters.sort`` order (oldest
    first by default)."""
    rows, next_cursor = _queue_rows(db, filters, limit, cursor)
    return Page([_entry(r) for r in rows], next_cursor)


def _entry(row: Any) -> QueueEntry:
    item = item_from_row(row)
    due = row["case_due_at"]
    acting = acting_deadline(
        item,
        None if due is None else datetime.fromisoformat(due),
        case_tier_action(row["case_due_tier"]),
    )
    return QueueEntry(item, *_case_columns(row), acting=acting)


def queue_documents(
    db: Database, filters: QueueFilter, *, limit: int = 50, cursor: str | None = None
) -> Page[QueueDocument]:
    """:func:`queue_page` with each item as its stored JSON document, for answering it as
    JSON: building the model and dumping it again costs ~50 µs an item (measured), decoding
    the document a few (what the JSON API's queue listing sends)."""
    rows, next_cursor = _queue_rows(db, filters, limit, cursor)
    documents = []
    for row in rows:
        document = item_document(row)
        acting = _acting_of_document(document, row["case_due_at"], row["case_due_tier"])
        documents.append(QueueDocument(document, *_case_columns(row), acting=acting))
    return Page(documents, next_cursor)


_POLICY: TypeAdapter[TimeoutPolicy] = TypeAdapter(TimeoutPolicy)


def _acting_of_document(
    document: dict[str, msgspec.Raw], case_due: str | None, case_tier: str | None
) -> ActingDeadline | None:
    """:func:`accord.approvals.acting_deadline` of a stored item, reading only the fields it
    needs from the document (a pending item's deadline, policy, risk and step)."""
    if msgspec.json.decode(document["status"]) != ApprovalStatus.PENDING.value:
        return None
    own = msgspec.json.decode(document["deadline"])
    if own is None and case_due is None:
        return None
    return acting_deadline_of(
        None if own is None else datetime.fromisoformat(own),
        _POLICY.validate_json(bytes(document["policy"])),
        msgspec.json.decode(document["risk"]),
        msgspec.json.decode(document["escalation_step"]),
        None if case_due is None else datetime.fromisoformat(case_due),
        case_tier_action(case_tier),
    )


def _queue_rows(
    db: Database, filters: QueueFilter, limit: int, cursor: str | None
) -> tuple[list[Any], str | None]:
    """One page's rows of :func:`queue_query` and the cursor of the next page (None: last).

    The statement of each filter shape is rendered once and run on the driver
    (:class:`DriverQuery`): the queue listing is the service's most frequent request, and
    SQLAlchemy's per-execution work was a fifth of its cost (issue 13)."""
    shape, values = _queue_shape(filters, limit=limit, cursor=cursor)
    statement = _QUEUE_STATEMENTS.get(shape)
    if statement is None:
        statement = _QUEUE_STATEMENTS[shape] = DriverQuery(_queue_select(shape))
    rows = statement.rows_alone(db, values)  # one statement: its own snapshot
    more = len(rows) > limit
    rows = rows[:limit]
    last = rows[-1] if more else None
    return rows, encode_cursor(last["sort_key"], last["item_id"]) if last else None


def _case_columns(row: Any) -> tuple[str | None, str | None, str | None, str | None]:
    return row["kind"], row["severity"], row["subject"], row["task_type"]


def queue_query(filters: QueueFilter, *, limit: int, cursor: str | None) -> Select[Any]:
    """The query of one :func:`queue_page`: ``limit + 1`` items (the extra one says there is
    more) in ``(sort key, item_id)`` order; the sort key is ``created_at`` (read in order from
    the ``(status, created_at, id)`` index of migration 0012, so a page costs its rows, not the
    whole queue), or the deadline (none last) for ``sort="deadline"``."""
    shape, values = _queue_shape(filters, limit=limit, cursor=cursor)
    return _queue_select(shape).params(values)


#: Which filters a queue query has (each a bound value), the party set's size, the sort and
#: whether a cursor bounds it: the statement's shape, without the values.
_QueueShape = tuple[tuple[str, ...], int | None, str, bool]
#: One statement per shape seen (bounded: the filters, sorts and party-set sizes are).
_QUEUE_STATEMENTS: dict[_QueueShape, DriverQuery] = {}
_ITEM_FILTERS = {
    "status": approval_items.c.status,
    "risk": approval_items.c.risk,
    "case_id": approval_items.c.case_id,
}
_CASE_FILTERS = {"kind": cases.c.kind, "severity": cases.c.severity, "tier": cases.c.tier}


def _queue_shape(
    filters: QueueFilter, *, limit: int, cursor: str | None
) -> tuple[_QueueShape, dict[str, Any]]:
    """The filters checked, as a shape and the values its bound parameters take."""
    _check_limit(limit)
    _check_one_of("status", filters.status, APPROVAL_STATUSES)
    _check_one_of("sort", filters.sort, QUEUE_SORTS)
    if filters.party_in is not None and len(filters.party_in) > MAX_PARTY_SET:
        raise ValidationError(
            f"at most {MAX_PARTY_SET} agents in a party filter",
            code="paging.bad_filter",
            field="party_in",
            rule=f"at most {MAX_PARTY_SET} agents",
        )
    values: dict[str, Any] = {"page_limit": limit + 1}
    for name in (*_ITEM_FILTERS, *_CASE_FILTERS, "agent"):
        value = getattr(filters, name)
        if value is not None:
            values[f"f_{name}"] = value
    for i, agent in enumerate(filters.party_in or ()):
        values[f"party_{i}"] = agent
    if cursor is not None:
        values["after_key"], values["after_id"] = decode_cursor(cursor)
    given = tuple(n.removeprefix("f_") for n in values if n.startswith("f_"))
    party = None if filters.party_in is None else len(filters.party_in)
    return (given, party, filters.sort, cursor is not None), values


#: The case's armed tier deadline, beside each item (at most one: the armed-row unique index).
_CASE_DUE = deadlines.alias("case_due")


def _queue_select(shape: _QueueShape) -> Select[Any]:
    given, party, sort, bounded = shape
    own, case_due = approval_items.c.deadline, _CASE_DUE.c.due_at
    # the acting deadline: the sooner of the item's own and its case tier's (ISO text sorts
    # like time), as in accord.approvals.acting_deadline
    acting = case(
        (and_(case_due.is_not(None), or_(own.is_(None), case_due < own)), case_due), else_=own
    )
    key = func.coalesce(acting, _NO_DEADLINE) if sort == "deadline" else approval_items.c.created_at
    query = select(
        approval_items.c.document,
        key.label("sort_key"),
        approval_items.c.item_id,
        cases.c.kind,
        cases.c.severity,
        cases.c.subject,
        cases.c.task_type,
        case_due.label("case_due_at"),
        _CASE_DUE.c.tier.label("case_due_tier"),
    ).select_from(
        approval_items.outerjoin(cases, cases.c.case_id == approval_items.c.case_id).outerjoin(
            _CASE_DUE,
            and_(
                _CASE_DUE.c.kind == literal_column(f"'{CASE_TIER}'"),
                _CASE_DUE.c.subject_id == approval_items.c.case_id,
                _CASE_DUE.c.state == literal_column("'armed'"),
            ),
        )
    )
    for name in given:
        if name == "agent":
            query = query.where(
                exists()
                .where(case_parties.c.case_id == approval_items.c.case_id)
                .where(case_parties.c.agent_id == bindparam("f_agent"))
            )
        else:
            column = _ITEM_FILTERS.get(name, _CASE_FILTERS.get(name))
            assert column is not None
            query = query.where(column == bindparam(f"f_{name}"))
    if party is not None:
        members: list[BindParameter[Any]] = [
            bindparam(f"party_{i}", type_=String) for i in range(party)
        ]
        query = query.where(
            exists()
            .where(case_parties.c.case_id == approval_items.c.case_id)
            .where(case_parties.c.agent_id.in_(members) if members else false())
        )
    newest = sort == "newest"
    if bounded:
        after = tuple_(key, approval_items.c.item_id)
        bound = tuple_(bindparam("after_key", type_=String), bindparam("after_id", type_=String))
        query = query.where(after < bound if newest else after > bound)
    page = bindparam("page_limit", type_=Integer)
    if newest:
        return query.order_by(key.desc(), approval_items.c.item_id.desc()).limit(page)
    return query.order_by(key, approval_items.c.item_id).limit(page)


def case_counts(db: Database) -> list[tuple[str, str, str, int]]:
    """(kind, tier, status, count) over every case; ``kind`` is ``none`` when no conflict."""
    query = select(cases.c.kind, cases.c.tier, cases.c.status, func.count()).group_by(
        cases.c.kind, cases.c.tier, cases.c.status
    )
    with db.read() as conn:
        return [(str(r[0] or "none"), str(r[1]), str(r[2]), int(r[3])) for r in conn.execute(query)]


def queue_depth(db: Database) -> int:
    """Pending approval items."""
    query = (
        select(func.count())
        .select_from(approval_items)
        .where(approval_items.c.status == ApprovalStatus.PENDING.value)
    )
    with db.read() as conn:
        return int(conn.execute(query).scalar_one())
