"""Idempotency keys on settle, settle_async, settle_gather and park, and the idempotent claim
of a parked task's resumption: a retry writes nothing and gets what the first call got; the
same key for a different request is refused, writing nothing; another consumer is refused."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from accord.app import Accord
from accord.approvals import AlreadyResumed
from accord.cases import Case
from accord.clock import FrozenClock
from accord.errors import ValidationError
from accord.store import IdempotencyConflict
from accord.store.tables import cases, idempotency_keys, parked_tasks

from ..e2e._support import numbers_tied, reviewer_key, write_config

SUBJECT = "Total of invoice 4411"


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


def _rows(accord: Accord) -> tuple[int, ...]:
    """Ledger entries, cases, parked tasks, idempotency keys."""
    with accord.db.read() as conn:
        counted = [
            conn.execute(select(func.count()).select_from(table)).scalar_one()
            for table in (cases, parked_tasks, idempotency_keys)
        ]
    return (accord.ledger.size(), *counted)


def _positions() -> list[dict[str, Any]]:
    return numbers_tied("agent:a", "agent:b")


def test_a_retried_settle_returns_the_stored_case_and_writes_nothing(accord: Accord) -> None:
    first = accord.settle(SUBJECT, _positions(), idempotency_key="run-1:join")
    before = _rows(accord)
    again = accord.settle(SUBJECT, _positions(), idempotency_key="run-1:join")
    assert again.case_id == first.case_id
    assert again.status == first.status
    assert _rows(accord) == before


def test_the_same_key_for_another_request_is_refused_and_nothing_is_written(
    accord: Accord,
) -> None:
    accord.settle(SUBJECT, _positions(), idempotency_key="k")
    before = _rows(accord)
    with pytest.raises(IdempotencyConflict) as refused:
        accord.settle("Another subject", _positions(), idempotency_key="k")
    assert refused.value.code == "idempotency.conflict"
    with pytest.raises(IdempotencyConflict):
        accord.settle(SUBJECT, numbers_tied("agent:a", "agent:b", right=1500), idempotency_key="k")
    assert _rows(accord) == before


def test_a_position_and_its_mapping_are_the_same_request(accord: Accord) -> None:
    from accord import Position

    first = accord.settle(SUBJECT, _positions(), idempotency_key="same")
    typed = [Position.model_validate(p) for p in _positions()]
    assert accord.settle(SUBJECT, typed, idempotency_key="same").case_id == first.case_id


def test_without_a_key_every_settle_is_a_new_case(accord: Accord) -> None:
    assert (
        accord.settle(SUBJECT, _positions()).case_id != accord.settle(SUBJECT, _positions()).case_id
    )


def test_a_bad_key_is_refused_before_anything_is_written(accord: Accord) -> None:
    before = _rows(accord)
    for bad in ("", "x" * 300, "tab\there"):
        with pytest.raises(ValidationError) as refused:
            accord.settle(SUBJECT, _positions(), idempotency_key=bad)
        assert refused.value.code == "idempotency.invalid_key"
    assert _rows(accord) == before


def test_settle_async_and_racing_retries_record_one_case(accord: Accord) -> None:
    async def race() -> list[Case]:
        return await asyncio.gather(
            *(accord.settle_async(SUBJECT, _positions(), idempotency_key="race") for _ in range(4))
        )

    settled = asyncio.run(race())
    assert len({c.case_id for c in settled}) == 1
    assert _rows(accord)[1] == 1


def test_a_retried_gather_returns_the_stored_case_without_running_the_agents(
    accord: Accord,
) -> None:
    calls: list[str] = []

    async def agent(name: str, total: int) -> dict[str, Any]:
        calls.append(name)
        return {"output": total, "confidence": 0.8}

    def fan_out() -> dict[str, Any]:
        return {"agent:a": agent("agent:a", 1200), "agent:b": agent("agent:b", 1450)}

    first = asyncio.run(accord.settle_gather(SUBJECT, fan_out(), idempotency_key="g"))
    before = _rows(accord)
    again = asyncio.run(accord.settle_gather(SUBJECT, fan_out(), idempotency_key="g"))
    assert again.case_id == first.case_id
    assert calls == ["agent:a", "agent:b"]
    assert _rows(accord) == before
    with pytest.raises(IdempotencyConflict):
        asyncio.run(accord.settle_gather("Other", fan_out(), idempotency_key="g"))


def test_a_retried_park_returns_the_same_task_and_a_different_one_is_refused(
    accord: Accord,
) -> None:
    case = accord.settle(SUBJECT, _positions())
    handle = accord.park(case, "agent:a", {"step": 3}, idempotency_key="p")
    before = _rows(accord)
    again = accord.park(case.case_id, "agent:a", {"step": 3}, idempotency_key="p")
    assert (again.task_id, again.item_id) == (handle.task_id, handle.item_id)
    with pytest.raises(IdempotencyConflict):
        accord.park(case, "agent:a", {"step": 4}, idempotency_key="p")
    assert _rows(accord) == before


def test_the_same_claimant_gets_the_same_resumption_and_another_is_refused(
    accord: Accord,
) -> None:
    case = accord.settle(SUBJECT, _positions())
    handle = accord.park(case, "agent:a", {"step": 3})
    assert handle.poll(claim="graph:t1") is None
    accord.decide(str(case.approval_item_id), reviewer_key(accord, "human:alice"), choice="1450")
    first = handle.poll(claim="graph:t1")
    assert first is not None
    assert first.decision.choice == "1450"
    assert handle.poll(claim="graph:t1") == first
    assert asyncio.run(handle.decision(claim="graph:t1")) == first
    with pytest.raises(AlreadyResumed):
        handle.poll(claim="someone-else")
    with pytest.raises(AlreadyResumed):
        handle.poll()


def test_a_task_resumed_without_a_claim_is_not_reclaimed(accord: Accord) -> None:
    case = accord.settle(SUBJECT, _positions())
    handle = accord.park(case, "agent:a", {})
    accord.decide(str(case.approval_item_id), reviewer_key(accord, "human:alice"), deny=True)
    assert handle.poll() is not None
    with pytest.raises(AlreadyResumed):
        handle.poll(claim="late")
