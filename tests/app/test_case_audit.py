"""``Accord.verify`` also checks the case tables against what was signed: a row edited,
deleted or left without its dissent is named, even though the ledger itself is intact."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import delete, update

from accord.app import Accord
from accord.cases import Case, SettleStatus
from accord.clock import FrozenClock
from accord.errors import VerificationFailed
from accord.store.tables import case_parties, cases, dissents


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    opened = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    yield opened
    opened.close()


def _settle_some(accord: Accord) -> tuple[Case, Case, Case]:
    settled = accord.settle(
        "invoice total",
        [
            {"agent": "agent:a", "output": 100, "confidence": 0.9},
            {"agent": "agent:b", "output": 180, "confidence": 0.2},
        ],
    )
    escalated = accord.settle(
        "sanctioned?",
        [{"agent": "agent:a", "output": True}, {"agent": "agent:b", "output": False}],
    )
    agreed = accord.settle(
        "label", [{"agent": "agent:a", "output": "ok"}, {"agent": "agent:b", "output": "ok"}]
    )
    assert settled.status is SettleStatus.SETTLED
    assert escalated.status is SettleStatus.ESCALATED
    assert agreed.status is SettleStatus.NO_CONFLICT
    return settled, escalated, agreed


def _mismatch(accord: Accord, code: str = "cases.mismatch") -> VerificationFailed:
    with pytest.raises(VerificationFailed) as err:
        accord.verify(workers=1)
    assert err.value.code == code
    return err.value


def test_intact_cases_verify_and_are_counted(accord: Accord) -> None:
    _settle_some(accord)
    assert accord.verify(workers=1).cases == 3


def test_an_edited_winner_column_is_named(accord: Accord) -> None:
    settled, _, _ = _settle_some(accord)
    with accord.db.write() as conn:
        conn.execute(
            update(cases).where(cases.c.case_id == settled.case_id).values(winner="agent:b")
        )
    error = _mismatch(accord)
    assert error.context["case_id"] == settled.case_id
    assert error.context["field"] == "winner"


def test_an_escalated_case_marked_settled_is_named(accord: Accord) -> None:
    _, escalated, _ = _settle_some(accord)
    with accord.db.write() as conn:
        conn.execute(
            update(cases).where(cases.c.case_id == escalated.case_id).values(status="settled")
        )
    assert _mismatch(accord).context["case_id"] == escalated.case_id


def test_a_rewritten_document_that_disagrees_with_the_signature_is_named(accord: Accord) -> None:
    settled, _, _ = _settle_some(accord)
    assert settled.decision is not None
    forged = settled.model_copy(
        update={"decision": settled.decision.model_copy(update={"answer": 180})}
    )
    with accord.db.write() as conn:
        conn.execute(
            update(cases)
            .where(cases.c.case_id == settled.case_id)
            .values(document=forged.model_dump_json(exclude_defaults=True))
        )
    error = _mismatch(accord)
    assert error.context["column"] == "document:decision.answer"
    assert error.context["table"] == "cases"
    assert error.context["key"] == settled.case_id


def test_deleted_dissent_and_deleted_cases_are_named(accord: Accord) -> None:
    settled, _, agreed = _settle_some(accord)
    with accord.db.write() as conn:
        conn.execute(delete(dissents).where(dissents.c.case_id == settled.case_id))
    assert _mismatch(accord, "dissents.missing_row").context["case_id"] == settled.case_id
    with accord.db.write() as conn:
        conn.execute(delete(cases).where(cases.c.case_id == settled.case_id))
        conn.execute(delete(cases).where(cases.c.case_id == agreed.case_id))
    error = _mismatch(accord, "cases.missing_row")
    assert error.context["field"] == "row"
    assert error.context["case_id"] in {settled.case_id, agreed.case_id}


def test_events_an_application_appends_itself_need_no_case_row(accord: Accord) -> None:
    _settle_some(accord)
    accord.ledger.append("dispute_opened", {"dispute_id": "disp:1", "note": "our own record"})
    assert accord.verify(workers=1).cases == 3


def test_verify_while_another_thread_settles_never_reports_a_mismatch(accord: Accord) -> None:
    stop = threading.Event()

    def settle_forever() -> None:
        i = 0
        while not stop.is_set():
            accord.settle(
                f"case {i}",
                [
                    {"agent": "agent:a", "output": 100 + i, "confidence": 0.9},
                    {"agent": "agent:b", "output": 300 + i, "confidence": 0.2},
                ],
            )
            i += 1

    writer = threading.Thread(target=settle_forever)
    writer.start()
    try:
        for _ in range(5):
            accord.verify(workers=1)
    finally:
        stop.set()
        writer.join(30)
    assert accord.verify(workers=1).cases > 0


def test_a_forged_party_outcome_or_a_rewritten_subject_is_named(accord: Accord) -> None:
    settled, _, agreed = _settle_some(accord)
    with accord.db.write() as conn:
        conn.execute(
            update(case_parties)
            .where(case_parties.c.case_id == settled.case_id)
            .where(case_parties.c.agent_id == "agent:b")
            .values(outcome="won")
        )
    error = _mismatch(accord, "case_parties.mismatch")
    assert error.context["key"] == f"{settled.case_id}/agent:b"
    assert error.context["column"] == "outcome"
    assert (error.context["expected"], error.context["stored"]) == ("'lost'", "'won'")
    with accord.db.write() as conn:
        conn.execute(
            update(case_parties)
            .where(case_parties.c.case_id == settled.case_id)
            .where(case_parties.c.agent_id == "agent:b")
            .values(outcome="lost")
        )
    accord.verify(workers=1)
    rewritten = agreed.model_copy(update={"subject": "a different question"})
    with accord.db.write() as conn:
        conn.execute(
            update(cases)
            .where(cases.c.case_id == agreed.case_id)
            .values(subject="a different question", document=rewritten.model_dump_json())
        )
    assert _mismatch(accord).context["field"] == "document:subject"
