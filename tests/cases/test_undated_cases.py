"""Settle cases an older version escalated above tier 1 without a tier deadline: adopted by
``Accord.adopt_undated_cases`` (``accord sweep --adopt-undated``) with the deadline settle arms
now, counted from when each escalated, in one transaction; then swept like any other (R3, R4).
An older version's case is made here as it left the database: escalated, no ``case_tier`` row."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete

from accord.app import Accord
from accord.cases import SettleStatus
from accord.cases.deadlines import CASE_TIER
from accord.clock import FrozenClock
from accord.dcp07.statuses import CaseStatus
from accord.errors import AccordError
from accord.store.tables import deadlines

from ..e2e._support import numbers_tied
from .test_case_deadlines import MEDIUM, START, _open, _tied, _tier_one_only


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(START)


@pytest.fixture
def accord(tmp_path: Path, database_url: str, clock: FrozenClock) -> Iterator[Accord]:
    opened = _open(tmp_path, database_url, clock)
    yield opened
    opened.close()


def _escalated_by_an_older_version(accord: Accord, subject: str) -> str:
    """A case waiting at contextual arbitration with no tier deadline (older versions armed
    none); its id."""
    case = _tier_one_only(accord).settle(_tied(subject))
    with accord.db.write() as conn:
        conn.execute(
            delete(deadlines)
            .where(deadlines.c.kind == CASE_TIER)
            .where(deadlines.c.subject_id == case.case_id)
        )
    assert accord.case_deadline(case.case_id) is None
    return case.case_id


def test_r03_an_undated_case_gets_its_tiers_deadline_counted_from_its_escalation(
    accord: Accord, clock: FrozenClock
) -> None:
    case_id = _escalated_by_an_older_version(accord, "invoice 1")
    clock.advance(timedelta(hours=1))  # adopted later than it escalated

    adopted = accord.adopt_undated_cases()

    assert [d.subject_id for d in adopted] == [case_id]
    deadline = accord.case_deadline(case_id)
    assert deadline is not None
    assert (deadline.kind, deadline.tier) == (CASE_TIER, "contextual_arbitration")
    assert deadline.due_at == START + MEDIUM  # from the escalation, not from the adoption
    assert deadline.armed_at == START + timedelta(hours=1)


def test_adopting_twice_adopts_nothing_the_second_time(accord: Accord) -> None:
    _escalated_by_an_older_version(accord, "invoice 1")
    assert len(accord.adopt_undated_cases()) == 1
    assert accord.adopt_undated_cases() == []


def test_r04_an_adopted_deadline_already_past_escalates_the_case_at_the_next_sweep(
    accord: Accord, clock: FrozenClock
) -> None:
    case_id = _escalated_by_an_older_version(accord, "invoice 1")
    clock.advance(MEDIUM * 2)
    assert list(accord.sweep_deadlines().fired) == []  # undated: no sweep ever moves it

    accord.adopt_undated_cases()
    report = accord.sweep_deadlines()

    assert [(f.deadline.subject_id, f.handled.outcome) for f in report.fired] == [
        (case_id, "escalated")
    ]
    case = accord.cases.get(case_id)
    assert (case.dcp_status, case.tier.value) == (CaseStatus.APPEALING, "human_appeal")
    accord.verify(workers=1)


def test_cases_with_a_deadline_at_tier_one_or_finished_are_not_adopted(
    accord: Accord,
) -> None:
    dated = _tier_one_only(accord).settle(_tied("already dated"))
    settled = accord.settle("Total of invoice 9", [
        {"agent": "agent:a", "output": 1, "confidence": 0.9},
        {"agent": "agent:b", "output": 1, "confidence": 0.9},
    ])  # fmt: skip
    undated = _escalated_by_an_older_version(accord, "undated")

    adopted = accord.adopt_undated_cases()

    assert [d.subject_id for d in adopted] == [undated]
    assert settled.status is not SettleStatus.ESCALATED
    before = accord.case_deadline(dated.case_id)
    assert before is not None
    assert before.due_at == START + MEDIUM  # its own deadline, untouched


def test_a_read_only_accord_refuses_to_adopt(
    tmp_path: Path, database_url: str, clock: FrozenClock, accord: Accord
) -> None:
    reader = Accord.open(
        db_url=database_url, keys_dir=tmp_path / "keys", clock=clock, read_only=True
    )
    try:
        with pytest.raises(AccordError) as refused:
            reader.adopt_undated_cases()
    finally:
        reader.close()
    assert refused.value.code == "accord.read_only"


def test_a_case_waiting_on_an_items_own_timeout_is_not_undated(
    tmp_path: Path, database_url: str, clock: FrozenClock
) -> None:
    timed = _open(
        tmp_path,
        database_url,
        clock,
        approvals={
            "principals": {"human:alice": []},
            "timeout_policy": {"kind": "deny", "timeout_minutes": 30},
        },
    )
    try:
        case = timed.settle("Total of invoice 4411", numbers_tied("agent:a", "agent:b"))
        deadline = timed.case_deadline(case.case_id)
        assert deadline is not None
        assert deadline.kind == "approval_timeout"
        assert timed.adopt_undated_cases() == []
    finally:
        timed.close()
