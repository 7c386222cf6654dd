"""The holes issue 9 found in the stored-rows audit, each reproduced: a forged decider, an
injected option and an item reopened and decided again on ``approval_items``; ledger rows
outside the chain; values stored where no signed record states one; and what the error says."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import Connection, insert, update

from accord.approvals.item import ApprovalItem, ApprovalStatus
from accord.approvals.principal import Principal
from accord.approvals.rows import item_row
from accord.approvals.transitions import decided_by_human
from accord.cases import Case, SettleStatus
from accord.cases.store import case_row
from accord.errors import VerificationFailed
from accord.store.tables import approval_items, cases, ledger_entries

from .conftest import Populated


@contextmanager
def tampered(populated: Populated, tables: set[str]) -> Iterator[Callable[[], VerificationFailed]]:
    def failure() -> VerificationFailed:
        with pytest.raises(VerificationFailed) as caught:
            populated.accord.verify(workers=1)
        return caught.value

    try:
        yield failure
    finally:
        populated.restore(tables)


def _items(populated: Populated) -> list[ApprovalItem]:
    return [
        ApprovalItem.model_validate_json(r["document"]) for r in populated.rows["approval_items"]
    ]


def _item(populated: Populated, status: ApprovalStatus) -> ApprovalItem:
    return next(i for i in _items(populated) if i.status is status)


def _write_item(conn: Connection, item: ApprovalItem) -> None:
    conn.execute(
        update(approval_items)
        .where(approval_items.c.item_id == item.item_id)
        .values(item_row(item))
    )


def _rewrite_item(populated: Populated, item: ApprovalItem) -> VerificationFailed:
    with tampered(populated, {"approval_items"}) as failure:
        with populated.accord.db.write() as conn:
            _write_item(conn, item)
        return failure()


def test_a_forged_decider_is_named_with_the_signed_and_the_stored_principal(
    populated: Populated,
) -> None:
    item = _item(populated, ApprovalStatus.APPROVED)
    assert item.decision is not None
    forged = item.model_copy(
        update={"decision": item.decision.model_copy(update={"decided_by": "human:mallory"})}
    )
    error = _rewrite_item(populated, forged)
    assert error.code == "approval_items.mismatch"
    assert error.context["item_id"] == item.item_id
    assert error.context["column"] == "document:decision.decided_by"
    assert error.context["expected"] == "'human:alice'"
    assert error.context["stored"] == "'human:mallory'"
    assert item.item_id in error.message
    assert "human:mallory" in error.message


def test_an_injected_option_is_named(populated: Populated) -> None:
    item = _item(populated, ApprovalStatus.PENDING)
    forged = item.model_copy(update={"options": (*item.options, "pay twice")})
    error = _rewrite_item(populated, forged)
    assert error.code == "approval_items.mismatch"
    assert error.context["column"] == "document:options"
    assert "pay twice" in str(error.context["stored"])


def test_an_item_reopened_and_decided_again_has_no_signed_transition(
    populated: Populated,
) -> None:
    denied = _item(populated, ApprovalStatus.DENIED)
    reopened = ApprovalItem.model_validate(
        {
            **denied.model_dump(),
            "status": "pending",
            "decision": None,
            "version": denied.version + 1,
        }
    )
    redecided = decided_by_human(
        reopened,
        Principal(principal_id="human:mallory", roles=frozenset({"team_lead", "head"})),
        outcome="approved",
        choice=reopened.options[0],
        reason="changed my mind",
        now=reopened.created_at,
    )
    error = _rewrite_item(populated, redecided)
    assert error.code == "approval_items.mismatch"
    assert error.context["item_id"] == denied.item_id
    assert error.context["column"].startswith("document:")


def test_an_approval_row_no_signed_event_requested_is_unbacked(populated: Populated) -> None:
    item = _items(populated)[0]
    last = "0" if item.item_id[-1] != "0" else "1"
    stranger = item.model_copy(update={"item_id": item.item_id[:-1] + last})
    assert stranger.item_id != item.item_id
    with tampered(populated, {"approval_items"}) as failure:
        with populated.accord.db.write() as conn:
            conn.execute(insert(approval_items).values(item_row(stranger)))
        error = failure()
    assert error.code == "approval_items.unbacked"
    assert error.context["item_id"] == stranger.item_id


@pytest.mark.parametrize("seq", [0, -7])
def test_a_ledger_row_outside_the_chain_is_reported(populated: Populated, seq: int) -> None:
    first = populated.rows["ledger_entries"][0]
    with tampered(populated, {"ledger_entries"}) as failure:
        with populated.accord.db.write() as conn:
            conn.execute(insert(ledger_entries).values({**first, "seq": seq}))
        error = failure()
    assert error.code == "ledger_entries.outside_chain"
    assert error.context["key"] == str(seq)


def _case(populated: Populated, test: Callable[[Case], bool]) -> Case:
    documents = [Case.model_validate_json(r["document"]) for r in populated.rows["cases"]]
    return next(c for c in documents if test(c))


def _rewrite_case(populated: Populated, case: Case) -> VerificationFailed:
    with tampered(populated, {"cases"}) as failure:
        with populated.accord.db.write() as conn:
            conn.execute(
                update(cases).where(cases.c.case_id == case.case_id).values(case_row(case))
            )
        return failure()


def test_a_value_stored_where_no_signed_record_states_one_is_unbacked(
    populated: Populated,
) -> None:
    tier_one = _case(populated, lambda c: c.status is SettleStatus.SETTLED and c.strategy is None)
    error = _rewrite_case(populated, tier_one.model_copy(update={"strategy": "judge"}))
    assert error.code == "cases.unbacked"
    assert error.context["case_id"] == tier_one.case_id
    assert error.context["column"] == "document:strategy"
    assert error.context["stored"] == "'judge'"


@pytest.mark.parametrize(
    ("change", "column"),
    [
        (lambda c: {"task_type": "payroll"}, "document:task_type"),
        (lambda c: {"duration_ms": c.duration_ms + 1}, "document:duration_ms"),
        (
            lambda c: {
                "positions": (
                    c.positions[0].model_copy(update={"confidence": 0.1}),
                    *c.positions[1:],
                )
            },
            "document:positions.confidence",
        ),
        (
            lambda c: {"decision": c.decision.model_copy(update={"confidence": 0.5})},
            "document:decision.confidence",
        ),
        (
            lambda c: {"decision": c.decision.model_copy(update={"rung": "vote"})},
            "document:decision.rung",
        ),
        (
            lambda c: {"dissent": (c.dissent[0].model_copy(update={"reasoning": "forged"}),)},
            "document:dissent",
        ),
    ],
    ids=[
        "task type",
        "duration",
        "a position's confidence",
        "decision confidence",
        "rung",
        "a dissent's reasoning",
    ],
)
def test_signed_fields_the_old_audit_missed_are_named(
    populated: Populated, change: Callable[[Case], dict[str, Any]], column: str
) -> None:
    settled = _case(populated, lambda c: c.status is SettleStatus.SETTLED and bool(c.dissent))
    error = _rewrite_case(populated, settled.model_copy(update=change(settled)))
    assert error.code == "cases.mismatch"
    assert error.context["case_id"] == settled.case_id
    assert error.context["column"] == column


def test_long_values_are_truncated_in_the_report(populated: Populated) -> None:
    agreed = _case(populated, lambda c: c.status is SettleStatus.NO_CONFLICT)
    error = _rewrite_case(populated, agreed.model_copy(update={"subject": "x" * 5000}))
    assert error.context["column"] == "document:subject"
    stored = str(error.context["stored"])
    assert len(stored) <= 120
    assert stored.endswith("…")
    assert len(error.message) < 400


def test_an_answer_shown_to_reviewers_that_the_agent_never_gave_is_named(
    populated: Populated,
) -> None:
    item = _item(populated, ApprovalStatus.PENDING)
    first = item.positions[0].model_copy(update={"answer": "something else"})
    forged = item.model_copy(update={"positions": (first, *item.positions[1:])})
    error = _rewrite_item(populated, forged)
    assert error.code == "approval_items.mismatch"
    assert error.context["column"] == "document:positions.answer"
    assert error.context["case_id"] == item.case_id
