"""A settle case that leaves tier 1 is a DCP-07 dispute in ``escalated``: its severity's tier
deadlines (R3) escalate it to human appeal (R4, R9) and then abandon it (R6), on the one
deadline mechanism — through the public API, on SQLite and PostgreSQL, with a frozen clock."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from accord.api.queries.case_timeline import case_timeline
from accord.app import Accord
from accord.approvals import ApprovalStatus, DenyAfter
from accord.cases import Settler, SettleRequest, SettleStatus, TriageSettings
from accord.cases.deadlines import CASE_TIER
from accord.clock import FrozenClock
from accord.dcp07.statuses import CaseStatus
from accord.deadlines import DeadlineState, history
from accord.errors import AccordError

from ..e2e._support import numbers_tied, reviewer_key, write_config

START = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
MEDIUM = timedelta(hours=4)  # R3: a medium dispute's deadline at every tier


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(START)


def _open(tmp_path: Path, database_url: str, clock: FrozenClock, **config: Any) -> Accord:
    body = {"approvals": {"principals": {"human:alice": []}}, **config}
    return Accord.open(
        write_config(tmp_path, body), db_url=database_url, keys_dir=tmp_path / "keys", clock=clock
    )


@pytest.fixture
def accord(tmp_path: Path, database_url: str, clock: FrozenClock) -> Iterator[Accord]:
    opened = _open(tmp_path, database_url, clock)
    yield opened
    opened.close()


def _tier_one_only(accord: Accord) -> Settler:
    """A settler with no strategy after tier 1 on the Accord's own ledger, cases and queue:
    what tier 1 cannot settle waits at contextual arbitration (dcp ``escalated``)."""
    return Settler(
        ledger=accord.ledger,
        store=accord.cases,
        clock=accord.clock,
        settings=TriageSettings(),
        approvals=accord.approvals,
    )


def _tied(subject: str = "Total of invoice 4411") -> SettleRequest:
    return SettleRequest(subject=subject, positions=numbers_tied("agent:a", "agent:b"))


def _kinds(accord: Accord, case_id: str) -> list[str]:
    return [
        e.event_type
        for e in accord.ledger.entries()
        if e.record.get("dispute_id") == case_id or e.record.get("case_id") == case_id
    ]


def test_r03_r42_a_settle_case_escalated_to_tier_two_gets_its_severitys_deadline(
    accord: Accord,
) -> None:
    case = _tier_one_only(accord).settle(_tied())
    assert case.dcp_status is CaseStatus.ESCALATED
    assert case.tier.value == "contextual_arbitration"
    deadline = accord.case_deadline(case.case_id)
    assert deadline is not None
    assert deadline.kind == CASE_TIER
    assert deadline.tier == "contextual_arbitration"
    assert deadline.due_at == START + MEDIUM


def test_settle_many_arms_a_deadline_for_every_case_above_tier_one(accord: Accord) -> None:
    cases = _tier_one_only(accord).settle_many([_tied("one"), _tied("two")])
    due = [accord.case_deadline(c.case_id) for c in cases]
    assert [d.due_at if d else None for d in due] == [START + MEDIUM] * 2


def test_settle_async_arms_the_deadline_with_the_case(accord: Accord) -> None:
    case = asyncio.run(_tier_one_only(accord).settle_async(_tied()))
    deadline = accord.case_deadline(case.case_id)
    assert deadline is not None
    assert deadline.due_at == START + MEDIUM


def test_a_case_settled_at_tier_one_gets_no_deadline(accord: Accord) -> None:
    case = accord.settle(
        "Total",
        [
            {"agent": "agent:a", "output": 1200, "confidence": 0.95},
            {"agent": "agent:b", "output": 1450, "confidence": 0.3},
        ],
    )
    assert case.status is SettleStatus.SETTLED
    assert accord.case_deadline(case.case_id) is None


def test_r04_sweeping_past_the_deadline_escalates_once_to_human_appeal_with_one_item(
    accord: Accord, clock: FrozenClock
) -> None:
    case = _tier_one_only(accord).settle(_tied())
    clock.advance(MEDIUM - timedelta(seconds=1))
    assert accord.sweep_deadlines().fired == []  # not due yet
    clock.advance(timedelta(seconds=1))
    report = accord.sweep_deadlines()
    assert [(f.deadline.kind, f.handled.outcome) for f in report.fired] == [
        (CASE_TIER, "escalated")
    ]
    assert accord.sweep_deadlines().fired == []  # fired exactly once
    moved = accord.cases.get(case.case_id)
    assert moved.dcp_status is CaseStatus.APPEALING
    assert moved.tier.value == "human_appeal"
    assert moved.decided_at == START + MEDIUM
    assert "the contextual_arbitration deadline passed unresolved (R4)" in str(
        moved.escalation and moved.escalation.reason
    )
    items = accord.approvals.list(case_id=case.case_id)
    assert [i.item_id for i in items] == [moved.approval_item_id]
    assert items[0].status is ApprovalStatus.PENDING
    assert [i.item_id for i in accord.approvals.pending()] == [moved.approval_item_id]
    assert _kinds(accord, case.case_id).count("dispute_escalated") == 2
    escalated = [e.record for e in accord.ledger.entries() if e.event_type == "dispute_escalated"]
    assert escalated[-1]["from_level"] == "contextual_arbitration"
    assert escalated[-1]["to_level"] == "human_appeal"
    assert escalated[-1]["approval_item_id"] == moved.approval_item_id
    accord.verify()


def test_r09_the_clock_restarts_at_human_appeal(accord: Accord, clock: FrozenClock) -> None:
    case = _tier_one_only(accord).settle(_tied())
    clock.advance(MEDIUM + timedelta(minutes=10))  # swept ten minutes late
    accord.sweep_deadlines()
    deadline = accord.case_deadline(case.case_id)
    assert deadline is not None
    assert deadline.tier == "human_appeal"
    assert deadline.due_at == START + MEDIUM + timedelta(minutes=10) + MEDIUM


def test_a_decision_by_a_person_cancels_the_deadline(accord: Accord, clock: FrozenClock) -> None:
    case = _tier_one_only(accord).settle(_tied())
    clock.advance(MEDIUM)
    accord.sweep_deadlines()
    item_id = str(accord.cases.get(case.case_id).approval_item_id)
    accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="1450")
    settled = accord.cases.get(case.case_id)
    assert settled.status is SettleStatus.SETTLED
    assert accord.case_deadline(case.case_id) is None
    with accord.db.read() as conn:
        states = [d.state for d in history(conn, CASE_TIER, case.case_id)]
    assert states == [DeadlineState.FIRED, DeadlineState.CANCELLED]
    clock.advance(MEDIUM * 2)
    assert accord.sweep_deadlines().fired == []  # nothing left to fire on a settled case
    assert accord.cases.get(case.case_id).status is SettleStatus.SETTLED
    accord.verify()


def test_r06_the_case_is_abandoned_after_its_last_deadline(
    accord: Accord, clock: FrozenClock
) -> None:
    case = _tier_one_only(accord).settle(_tied())
    clock.advance(MEDIUM)
    accord.sweep_deadlines()
    item_id = str(accord.cases.get(case.case_id).approval_item_id)
    clock.advance(MEDIUM)
    report = accord.sweep_deadlines()
    assert [(f.deadline.kind, f.handled.outcome) for f in report.fired] == [
        (CASE_TIER, "abandoned")
    ]
    ended = accord.cases.get(case.case_id)
    assert ended.dcp_status is CaseStatus.ABANDONED
    assert ended.status is SettleStatus.EXPIRED
    assert ended.decided_at == START + 2 * MEDIUM
    assert accord.approvals.get(item_id).status is ApprovalStatus.CANCELLED
    assert accord.approvals.pending() == []
    assert accord.case_deadline(case.case_id) is None
    abandoned = [e.record for e in accord.ledger.entries() if e.event_type == "dispute_abandoned"]
    assert len(abandoned) == 1
    assert abandoned[0]["decided_by"] == "accord:deadline"
    assert "(R6)" in str(abandoned[0]["reason"])
    clock.advance(MEDIUM * 3)
    assert accord.sweep_deadlines().fired == []
    accord.verify()


def test_a_case_settle_queues_for_people_waits_on_its_human_appeal_deadline(
    accord: Accord, clock: FrozenClock
) -> None:
    case = accord.settle("Total of invoice 4411", numbers_tied("agent:a", "agent:b"))
    assert case.dcp_status is CaseStatus.APPEALING
    deadline = accord.case_deadline(case.case_id)
    assert deadline is not None
    assert (deadline.kind, deadline.tier, deadline.due_at) == (
        CASE_TIER,
        "human_appeal",
        START + MEDIUM,
    )
    clock.advance(MEDIUM)
    accord.sweep_deadlines()
    assert accord.cases.get(case.case_id).dcp_status is CaseStatus.ABANDONED
    accord.verify()


def test_an_item_with_its_own_timeout_is_the_appeal_tiers_only_deadline(
    tmp_path: Path, database_url: str, clock: FrozenClock
) -> None:
    accord = _open(
        tmp_path,
        database_url,
        clock,
        approvals={
            "principals": {"human:alice": []},
            "timeout_policy": {"kind": "deny", "timeout_minutes": 30},
        },
    )
    try:
        case = accord.settle("Total of invoice 4411", numbers_tied("agent:a", "agent:b"))
        item = accord.approvals.get(str(case.approval_item_id))
        assert isinstance(item.policy, DenyAfter)
        deadline = accord.case_deadline(case.case_id)
        assert deadline is not None
        due = START + timedelta(minutes=30)
        assert (deadline.kind, deadline.due_at) == ("approval_timeout", due)
        with accord.db.read() as conn:
            assert history(conn, CASE_TIER, case.case_id) == []  # never two at once
        clock.advance(timedelta(minutes=30))
        fired = accord.sweep_deadlines().fired
        assert [f.deadline.kind for f in fired] == ["approval_timeout"]
        assert accord.cases.get(case.case_id).dcp_status is CaseStatus.ABANDONED
        accord.verify()
    finally:
        accord.close()


def test_the_timeline_ends_with_the_deadline_the_case_waits_on(accord: Accord) -> None:
    case = _tier_one_only(accord).settle(_tied())
    deadline = accord.case_deadline(case.case_id)
    events = case_timeline(case, None, deadline)
    assert events[-1].event == "escalation_deadline"
    assert events[-1].timestamp == START + MEDIUM
    assert events[-1].tier == "contextual_arbitration"
    assert "escalation_deadline" not in [e.event for e in case_timeline(case, None)]


def test_the_port_knows_no_deadline_for_an_unknown_case_or_one_without_a_conflict(
    accord: Accord,
) -> None:
    agreed = accord.settle("Total", numbers_tied("agent:a", "agent:b", right=1200))
    assert agreed.status is SettleStatus.NO_CONFLICT
    with accord.db.read() as conn:
        assert accord.case_deadlines.dispute_at_deadline(conn, "disp:nope") is None
        assert accord.case_deadlines.dispute_at_deadline(conn, agreed.case_id) is None


def test_a_read_only_accord_refuses_to_sweep(
    tmp_path: Path, database_url: str, clock: FrozenClock, accord: Accord
) -> None:
    reader = Accord.open(
        write_config(tmp_path, {}, "reader.yaml"),
        db_url=database_url,
        keys_dir=tmp_path / "keys",
        clock=clock,
        read_only=True,
    )
    try:
        with pytest.raises(AccordError) as refused:
            reader.sweep_deadlines()
        assert refused.value.code == "accord.read_only"
    finally:
        reader.close()
