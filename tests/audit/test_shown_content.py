"""What a reviewer is shown before deciding is signed (issue 31, item 3): a rewrite in the
database of the summary, the analysis, or a position's answer or reasoning fails ``verify``
naming the item and the field, on SQLite and PostgreSQL; a decision signs one digest of it
all; a ledger from before the digest still verifies, with the gap counted."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import update

from accord.approvals.events import APPROVAL_DECIDED, shown_digest
from accord.approvals.item import ApprovalItem, ApprovalStatus
from accord.approvals.position_summary import PositionSummary
from accord.approvals.rows import item_row
from accord.audit.approvals import SignedItem, audit_item, unproved_shown
from accord.errors import VerificationFailed
from accord.store.tables import approval_items
from accord.values import revised

from .conftest import Populated


def _items(populated: Populated) -> list[ApprovalItem]:
    return [
        ApprovalItem.model_validate_json(r["document"]) for r in populated.rows["approval_items"]
    ]


def _rewritten_fails(populated: Populated, forged: ApprovalItem) -> VerificationFailed:
    try:
        with populated.accord.db.write() as conn:
            conn.execute(
                update(approval_items)
                .where(approval_items.c.item_id == forged.item_id)
                .values(item_row(forged))
            )
        with pytest.raises(VerificationFailed) as caught:
            populated.accord.verify(workers=1)
        return caught.value
    finally:
        populated.restore({"approval_items"})


def _position(item: ApprovalItem, **changes: Any) -> tuple[PositionSummary, ...]:
    first, *rest = item.positions
    return (revised(first, **changes), *rest)


REWRITES = {
    "summary": lambda i: revised(i, summary=i.summary + " (the controller already agreed)"),
    "analysis": lambda i: revised(i, analysis="tier 1 found billing right"),
    "positions.reasoning": lambda i: revised(
        i, positions=_position(i, reasoning="the auditor admitted the error")
    ),
    "positions.answer": lambda i: revised(i, positions=_position(i, answer="a forged answer")),
}


@pytest.mark.parametrize("status", [ApprovalStatus.PENDING, ApprovalStatus.APPROVED])
@pytest.mark.parametrize("field", sorted(REWRITES))
def test_a_rewrite_of_what_the_reviewer_is_shown_fails_verify_naming_item_and_field(
    populated: Populated, field: str, status: ApprovalStatus
) -> None:
    item = next(i for i in _items(populated) if i.status is status)
    error = _rewritten_fails(populated, REWRITES[field](item))
    assert error.code == "approval_items.mismatch"
    assert error.context["item_id"] == item.item_id
    assert error.context["column"] == f"document:{field}"


def test_a_human_decision_signs_the_digest_of_what_its_reviewer_was_shown(
    populated: Populated,
) -> None:
    decided = next(i for i in _items(populated) if i.status is ApprovalStatus.APPROVED)
    records = [
        e.record
        for e in populated.accord.ledger.entries()
        if e.event_type == APPROVAL_DECIDED and e.record.get("item_id") == decided.item_id
    ]
    assert [r["shown_digest"] for r in records] == [shown_digest(decided)]


def _signed(records: list[tuple[str, dict[str, Any]]]) -> SignedItem:
    signed = SignedItem()
    for seq, (event_type, record) in enumerate(records, start=1):
        signed.add(seq, event_type, record)
    return signed


def test_a_ledger_written_before_the_digest_still_verifies_and_counts_the_gap(
    populated: Populated,
) -> None:
    item = next(i for i in _items(populated) if i.status is ApprovalStatus.PENDING)
    events = [
        (e.event_type, dict(e.record))
        for e in populated.accord.ledger.entries()
        if e.event_type.startswith("approval_") and e.record.get("item_id") == item.item_id
    ]
    old = [(kind, {k: v for k, v in r.items() if k != "shown"}) for kind, r in events]
    row = item_row(REWRITES["summary"](item))
    assert audit_item(item_row(item), _signed(events)) is None
    assert audit_item(row, _signed(events)) is not None
    assert audit_item(row, _signed(old)) is None  # not proved, and not failed
    assert unproved_shown({item.item_id: _signed(old)}) == 1
    assert populated.accord.verify(workers=1).unproved_shown == 0
