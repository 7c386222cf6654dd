"""Checking stored approval items against their signed approval events (pure: rows and
records in).

Every item the queue writes is announced by a signed ``approval_requested`` and every change
by a signed transition (``approvals/events.py``). Folding them gives each item's latest signed
state; the stored item (its document, and every column rebuilt from it by ``item_row``) must
equal it. An item reopened and decided again, a forged decider or an injected option has no
matching signed transition and is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from accord.approvals import events
from accord.approvals.events import option_text_hashes, shown_digest, shown_hashes
from accord.approvals.item import ApprovalDecision, ApprovalItem
from accord.approvals.rows import item_row
from accord.audit.paths import (
    Extract,
    RowProblem,
    Unsigned,
    at,
    compare_views,
    const,
    fold,
    shown,
)
from accord.cases.signable import answer_hash, basis_points
from accord.clock import isoformat
from accord.store.tables import approval_items

_IDENTITY: dict[str, Extract] = {
    "item_id": at("item_id"),
    "case_id": at("case_id"),
    "status": at("status"),
    "version": at("version"),
}
_OFFER: dict[str, Extract] = {
    "escalation_step": at("escalation_step"),
    "current_role": at("current_role"),
    "deadline": at("deadline"),
}
_CLOSED: dict[str, Extract] = {**_IDENTITY, "deadline": const(None)}
_DECIDED: dict[str, Extract] = {
    **_CLOSED,
    **{f"decision.{name}": at(name) for name in ApprovalDecision.model_fields},
}

#: Per approval event, where each path of the item's signed state sits in the record.
SIGNED_PATHS: Mapping[str, Mapping[str, Extract]] = {
    events.APPROVAL_REQUESTED: {
        **_IDENTITY,
        **_OFFER,
        "title": at("title"),
        "risk": at("risk"),
        "options": at("options"),
        "option_texts": at("option_text_hashes"),
        "summary": at("shown", "summary"),
        "analysis": at("shown", "analysis"),
        "positions.answer": at("shown", "answers"),
        "positions.reasoning": at("shown", "reasoning"),
        "positions.agent": at("agents"),
        "policy": at("policy"),
        "created_at": at("created_at"),
    },
    events.APPROVAL_DECIDED: {**_DECIDED, "shown_digest": at("shown_digest")},
    events.APPROVAL_EXPIRED: _DECIDED,
    events.APPROVAL_ESCALATED: {**_IDENTITY, **_OFFER},
    events.APPROVAL_DEADLINE_CLEARED: {
        **_IDENTITY,
        "deadline": const(None),
        "current_role": at("current_role"),
    },
    events.APPROVAL_CANCELLED: _CLOSED,
}


def _iso(value: Any) -> Any:
    return isoformat(value) if value is not None else None


def _decision(name: str) -> Callable[[ApprovalItem], Any]:
    def read(item: ApprovalItem) -> Any:
        if item.decision is None:
            return None
        value = getattr(item.decision, name)
        return _iso(value) if name == "decided_at" else value

    return read


#: What a reviewer reads before deciding, signed as hashes in ``approval_requested``
#: (``shown``); a ledger written before release 0.19 has none (see :func:`unproved_shown`).
SHOWN_PATHS = ("summary", "analysis", "positions.answer", "positions.reasoning")
SHOWN_DIGEST = "shown_digest"


def _shown_digest(item: ApprovalItem) -> str | None:
    decision = item.decision
    return shown_digest(item) if decision is not None and decision.via == "human" else None


@dataclass(frozen=True)
class FromCase:
    """A field of each position that the item's *case* signed (its opening record): compared
    for items settle raised; an item created directly has only its agents signed."""

    case_path: str
    read: Callable[[Any], Any]


#: Every field of an approval item: how it is read for the comparison, or why it is unsigned.
APPROVAL_DOCUMENT: Mapping[str, Callable[[ApprovalItem], Any] | FromCase | Unsigned] = {
    "item_id": lambda i: i.item_id,
    "case_id": lambda i: i.case_id,
    "title": lambda i: i.title,
    "summary": lambda i: shown_hashes(i)["summary"],
    "positions.agent": lambda i: [p.agent for p in i.positions],
    "positions.answer": FromCase("positions.output", lambda p: answer_hash(p.answer)),
    "positions.confidence": FromCase("positions.confidence", lambda p: basis_points(p.confidence)),
    "positions.reasoning": lambda i: shown_hashes(i)["reasoning"],
    "analysis": lambda i: shown_hashes(i)["analysis"],
    "options": lambda i: list(i.options),
    "option_texts": option_text_hashes,
    "risk": lambda i: i.risk,
    "policy": lambda i: i.policy.model_dump(mode="json"),
    "status": lambda i: i.status.value,
    "created_at": lambda i: isoformat(i.created_at),
    "deadline": lambda i: _iso(i.deadline),
    "escalation_step": lambda i: i.escalation_step,
    "current_role": lambda i: i.current_role,
    **{
        f"decision.{name}": _decision(name)
        for name in (
            "outcome",
            "choice",
            "written_outcome",
            "decided_by",
            "reason",
            "decided_at",
            "via",
        )
    },
    "version": lambda i: i.version,
}
_READERS = {p: r for p, r in APPROVAL_DOCUMENT.items() if callable(r)}
_FROM_CASE = {p: r for p, r in APPROVAL_DOCUMENT.items() if isinstance(r, FromCase)}

DOCUMENT = "document"
#: Each column of ``approval_items``, named by the document path ``item_row`` builds it from.
APPROVAL_COLUMNS: Mapping[str, str] = {
    "item_id": "item_id",
    "case_id": "case_id",
    "status": "status",
    "risk": "risk",
    "policy_kind": "policy",
    "escalation_step": "escalation_step",
    "offered_to_role": "current_role",
    "deadline": "deadline",
    "created_at": "created_at",
    "decided_at": "decision.decided_at",
    "decided_by": "decision.decided_by",
    "version": "version",
    "document": DOCUMENT,
}


@dataclass
class SignedItem:
    """The latest signed state of one approval item."""

    requested_at_seq: int | None = None
    view: dict[str, Any] = field(default_factory=dict)

    def add(self, seq: int, event_type: str, record: Mapping[str, Any]) -> None:
        if event_type == events.APPROVAL_REQUESTED and self.requested_at_seq is None:
            self.requested_at_seq = seq
        if self.requested_at_seq is not None:
            fold(self.view, SIGNED_PATHS[event_type], record)


def signed_items(records: Iterable[tuple[int, str, Mapping[str, Any]]]) -> dict[str, SignedItem]:
    """Fold approval events into each item's latest signed state."""
    found: dict[str, SignedItem] = {}
    for seq, event_type, record in records:
        item_id = record.get("item_id")
        if event_type in SIGNED_PATHS and isinstance(item_id, str):
            found.setdefault(item_id, SignedItem()).add(seq, event_type, record)
    return found


def _problem(
    kind: str,
    key: str,
    column: str,
    rule: str,
    expected: Any = None,
    stored: Any = None,
    *,
    values: bool = True,
    case_id: str | None = None,
) -> RowProblem:
    return RowProblem(
        code=f"approval_items.{kind}",
        table="approval_items",
        key=key,
        column=column,
        rule=rule,
        expected=shown(expected) if values else None,
        stored=shown(stored) if values else None,
        item_id=key,
        case_id=case_id,
    )


def audit_item(
    row: Mapping[str, Any],
    signed: SignedItem | None,
    case_view: Mapping[str, Any] | None = None,
) -> RowProblem | None:
    """The first way one ``approval_items`` row disagrees with its signed events (and, for
    an item settle raised, with the positions its case signed: ``case_view``)."""
    item_id = str(row["item_id"])
    try:
        item = ApprovalItem.model_validate_json(row[DOCUMENT])
    except ValueError as exc:
        return _problem(
            "mismatch", item_id, DOCUMENT, f"not a valid approval item: {exc}", values=False
        )
    built = item_row(item)
    for column, path in APPROVAL_COLUMNS.items():
        if path != DOCUMENT and row.get(column) != built.get(column):
            return _problem(
                "mismatch",
                item_id,
                column,
                f"the column disagrees with its document field {path}",
                built.get(column),
                row.get(column),
                case_id=item.case_id,
            )
    if signed is None or signed.requested_at_seq is None:
        return _problem(
            "unbacked",
            item_id,
            "row",
            "no signed approval_requested for this item",
            values=False,
            case_id=item.case_id,
        )

    def document_problem(kind: str, path: str, expected: Any, stored: Any) -> RowProblem:
        rule = (
            "differs from the item's latest signed event"
            if kind == "mismatch"
            else "stored, but no signed approval event states it"
        )
        return _problem(
            kind, item_id, f"document:{path}", rule, expected, stored, case_id=item.case_id
        )

    stored = {path: read(item) for path, read in _READERS.items()}
    expected = dict(signed.view)
    if "summary" in expected:  # signed what it showed: the answers too, for any item
        stored["positions.answer"] = shown_hashes(item)["answers"]
    else:  # an item requested before shown content was signed: counted by unproved_shown
        for path in SHOWN_PATHS:
            stored.pop(path, None)
    if case_view is not None and "positions.agent" in case_view:
        index = {agent: i for i, agent in enumerate(case_view["positions.agent"])}
        for path, how in _FROM_CASE.items():
            signed_values = case_view.get(how.case_path) or []
            expected[path] = [
                signed_values[index[p.agent]] if p.agent in index else None for p in item.positions
            ]
            stored[path] = [how.read(p) for p in item.positions]
    if SHOWN_DIGEST in expected:  # derived, compared last: a changed field is named first
        stored[SHOWN_DIGEST] = _shown_digest(item)
    return compare_views(expected, stored, document_problem)


def unproved_shown(signed: Mapping[str, SignedItem]) -> int:
    """Items whose signed request predates signing what people see (older ledgers): their
    summary, analysis and the positions' reasoning are stored but not proved."""
    return sum(
        1
        for item in signed.values()
        if item.requested_at_seq is not None and "summary" not in item.view
    )


def audit_items(
    conn: Connection,
    signed: Mapping[str, SignedItem],
    case_views: Mapping[str, Mapping[str, Any]] | None = None,
    batch: int = 500,
) -> tuple[int, RowProblem | None]:
    """Check every approval row against ``signed`` and its case's signed positions
    (``case_views``: case id → signed view), all read in one snapshot; every signed item must
    have a row. Returns the rows checked and the first problem."""
    case_views = case_views or {}
    checked, seen, last = 0, set[str](), ""
    while True:
        rows = conn.execute(
            select(approval_items)
            .where(approval_items.c.item_id > last)
            .order_by(approval_items.c.item_id)
            .limit(batch)
        ).all()
        if not rows:
            break
        for row in rows:
            checked += 1
            seen.add(row.item_id)
            problem = audit_item(
                dict(row._mapping), signed.get(row.item_id), case_views.get(row.case_id)
            )
            if problem is not None:
                return checked, problem
        last = rows[-1].item_id
    for item_id, item in signed.items():
        if item.requested_at_seq is not None and item_id not in seen:
            return checked, _problem(
                "missing_row",
                item_id,
                "row",
                f"requested at seq {item.requested_at_seq} but no approval row",
                values=False,
                case_id=item.view.get("case_id"),
            )
    return checked, None
