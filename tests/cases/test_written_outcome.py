"""A reviewer decides an approval item with an outcome in their own words: the reviewer-signed
decision carries it, the case settles on it with every agent overruled, a parked task resumes
with it, and ``verify`` checks the stored text against the signed record."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from accord.app import Accord
from accord.approvals import MAX_WRITTEN_OUTCOME_CHARS, ApprovalItem, ApprovalStatus
from accord.approvals.rows import item_row
from accord.approvals.transitions import refuse_unless_one_decision
from accord.cases import Case, SettleStatus
from accord.clock import FrozenClock
from accord.crypto import RecordSignature, verify_record
from accord.dcp07.statuses import CaseStatus
from accord.errors import ValidationError, VerificationFailed
from accord.store.tables import approval_items

from ..e2e._support import numbers_tied, reviewer_key, write_config

WRITTEN = "neither: use 1300 and re-run the check"


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    config = write_config(
        tmp_path,
        {
            "conflict_resolution": {"strategy": "human"},
            "approvals": {"principals": {"human:alice": []}},
        },
    )
    opened = Accord.open(
        config, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
    )
    yield opened
    opened.close()


def _escalated(accord: Accord) -> Case:
    case = accord.settle("Total of invoice 4411", numbers_tied("agent:a", "agent:b"))
    assert case.approval_item_id is not None
    return case


def _signed(accord: Accord, event_type: str) -> dict[str, Any]:
    return next(e.record for e in accord.ledger.entries() if e.event_type == event_type)


def _write(accord: Accord, item: ApprovalItem) -> None:
    with accord.db.write() as conn:
        conn.execute(
            update(approval_items)
            .where(approval_items.c.item_id == item.item_id)
            .values(item_row(item))
        )


def test_a_written_outcome_settles_the_case_on_it_with_every_agent_overruled(
    accord: Accord,
) -> None:
    case = _escalated(accord)
    signer = reviewer_key(accord, "human:alice")
    item = accord.decide(str(case.approval_item_id), signer, outcome=WRITTEN, reason="tariff")
    assert item.status is ApprovalStatus.APPROVED
    assert item.decision is not None
    assert (item.decision.choice, item.decision.written_outcome) == (None, WRITTEN)
    settled = accord.cases.get(case.case_id)
    assert (settled.status, settled.dcp_status) == (SettleStatus.SETTLED, CaseStatus.RESOLVED)
    assert settled.decision is not None
    assert settled.decision.answer == WRITTEN
    assert (settled.decision.winner, settled.decision.winners) == (None, ())
    assert settled.decision.rung == "human"
    assert sorted(d.agent_id for d in settled.dissent) == ["agent:a", "agent:b"]
    assert {(d.decided_by, d.reasoning, d.winning_answer) for d in settled.dissent} == {
        ("human:alice", "tariff", WRITTEN)
    }
    resolved = _signed(accord, "dispute_resolved")
    assert (resolved["resolution_type"], resolved["winner"], resolved["winners"]) == (
        "human_appeal",
        None,
        [],
    )
    assert resolved["answer"] == WRITTEN
    assert [d["agent_id"] for d in resolved["dissent"]] == ["agent:a", "agent:b"]


def test_the_reviewer_signs_the_written_outcome_and_choice_records_do_not_gain_the_field(
    accord: Accord,
) -> None:
    signer = reviewer_key(accord, "human:alice")
    written, chosen, denied = (_escalated(accord) for _ in range(3))
    accord.decide(str(written.approval_item_id), signer, outcome=WRITTEN)
    accord.decide(str(chosen.approval_item_id), signer, choice="1450")
    accord.decide(str(denied.approval_item_id), signer, deny=True, reason="no")
    records = {
        e.record["case_id"]: e.record
        for e in accord.ledger.entries()
        if e.event_type == "approval_decided"
    }
    record = records[written.case_id]
    assert record["written_outcome"] == WRITTEN
    signature = RecordSignature.model_validate(record["signature"])
    verify_record(record, signature, signer.public_key)
    assert "written_outcome" not in records[chosen.case_id]
    assert "written_outcome" not in records[denied.case_id]
    assert accord.verify(workers=1).entries > 0


def test_a_parked_task_resumes_with_the_written_outcome(accord: Accord) -> None:
    case = _escalated(accord)
    handle = accord.park(case, "agent:a", {"step": 3})
    assert handle.poll() is None
    accord.decide(
        str(case.approval_item_id), reviewer_key(accord, "human:alice"), outcome=WRITTEN
    )
    resumed = handle.poll()
    assert resumed is not None
    assert resumed.context == {"step": 3}
    assert (resumed.decision.written_outcome, resumed.decision.choice) == (WRITTEN, None)


def test_verify_fails_when_the_stored_written_outcome_is_rewritten(accord: Accord) -> None:
    case = _escalated(accord)
    item = accord.decide(
        str(case.approval_item_id), reviewer_key(accord, "human:alice"), outcome=WRITTEN
    )
    accord.verify(workers=1)
    assert item.decision is not None
    forged = item.model_copy(
        update={"decision": item.decision.model_copy(update={"written_outcome": "use 9999"})}
    )
    _write(accord, forged)
    with pytest.raises(VerificationFailed) as caught:
        accord.verify(workers=1)
    assert caught.value.context["column"] == "document:decision.written_outcome"


def test_verify_fails_when_the_written_outcome_is_erased_from_the_stored_item(
    accord: Accord,
) -> None:
    case = _escalated(accord)
    item = accord.decide(
        str(case.approval_item_id), reviewer_key(accord, "human:alice"), outcome=WRITTEN
    )
    assert item.decision is not None
    unbacked = item.model_copy(
        update={"decision": item.decision.model_copy(update={"written_outcome": None})}
    )
    _write(accord, unbacked)
    with pytest.raises(VerificationFailed) as caught:
        accord.verify(workers=1)
    assert caught.value.context["column"] == "document:decision.written_outcome"


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({}, "choice"),
        ({"choice": "1450", "deny": True}, "choice"),
        ({"choice": "1450", "outcome": WRITTEN}, "outcome"),
        ({"outcome": WRITTEN, "deny": True}, "outcome"),
        ({"outcome": "   "}, "outcome"),
        ({"outcome": "use 42\x00"}, "outcome"),
        ({"outcome": "use\u202e 42"}, "outcome"),
        ({"outcome": "x" * (MAX_WRITTEN_OUTCOME_CHARS + 1)}, "outcome"),
    ],
)
def test_anything_but_exactly_one_bounded_decision_is_refused_naming_the_field(
    accord: Accord, given: dict[str, Any], field: str
) -> None:
    case = _escalated(accord)
    with pytest.raises(ValidationError) as refused:
        accord.decide(str(case.approval_item_id), reviewer_key(accord, "human:alice"), **given)
    assert refused.value.context["field"] == field
    assert accord.approvals.get(str(case.approval_item_id)).is_pending
    assert accord.cases.get(case.case_id).status is SettleStatus.ESCALATED


def test_a_written_outcome_may_span_lines_and_tabs(accord: Accord) -> None:
    case = _escalated(accord)
    text = "neither:\n\tuse 1300\n\tre-run the check"
    accord.decide(str(case.approval_item_id), reviewer_key(accord, "human:alice"), outcome=text)
    settled = accord.cases.get(case.case_id)
    assert settled.decision is not None
    assert settled.decision.answer == text


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_only_non_blank_prose_passes_as_a_written_outcome(text: str) -> None:
    prose = text.replace("\n", " ").replace("\t", " ").isprintable() and bool(text.strip())
    if prose:
        refuse_unless_one_decision(choice=None, outcome=text, deny=False)
        return
    with pytest.raises(ValidationError) as refused:
        refuse_unless_one_decision(choice=None, outcome=text, deny=False)
    assert refused.value.context["field"] == "outcome"
