"""Agents park a task on an approval item and resume it exactly once when people decide."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from accord.approvals import (
    AlreadyResumed,
    ApprovalCancelled,
    ApprovalQueue,
    DecisionWaitTimedOut,
    DenyAfter,
    NotAParty,
    Parking,
    Reviewer,
)
from accord.clock import FrozenClock
from accord.errors import NotFound, ValidationError
from accord.store import Database, open_database
from tests.approvals.conftest import ask

CONTEXT = {"step": 3, "draft": {"total": 1200}, "notes": ["checked tax"]}


@pytest.fixture
def parking(db: Database, queue: ApprovalQueue, frozen_clock: FrozenClock) -> Parking:
    return Parking(db, queue, frozen_clock)


def test_a_parked_task_resumes_with_its_context_once_decided(
    parking: Parking, queue: ApprovalQueue, alice: Reviewer, frozen_clock: FrozenClock
) -> None:
    item = ask(queue)
    handle = parking.park("agent:billing", item.item_id, CONTEXT)
    assert handle.task_id.startswith("park:")
    assert handle.item_id == item.item_id
    assert handle.poll() is None
    [task] = parking.parked()
    assert (task.agent_id, task.context, task.resumed_at) == ("agent:billing", CONTEXT, None)

    frozen_clock.advance(timedelta(minutes=3))
    queue.decide(item.item_id, alice, outcome="approved", choice="agent:audit")
    resumption = handle.poll()
    assert resumption is not None
    assert (resumption.task_id, resumption.agent_id) == (handle.task_id, "agent:billing")
    assert resumption.context == CONTEXT
    assert resumption.decision.choice == "agent:audit"

    assert parking.parked() == []
    [resumed] = parking.parked("agent:billing", include_resumed=True)
    assert resumed.resumed_at == frozen_clock.now()
    with pytest.raises(AlreadyResumed):
        handle.poll()
    assert parking.get(handle.task_id).resumed_at == frozen_clock.now()


def test_waiting_returns_as_soon_as_the_item_is_decided(
    parking: Parking, queue: ApprovalQueue, alice: Reviewer
) -> None:
    item = ask(queue)
    handle = parking.park("agent:audit", item.item_id, CONTEXT)
    naps: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        naps.append(seconds)
        if len(naps) == 2:
            queue.decide(item.item_id, alice, outcome="denied", reason="neither")

    resumption = asyncio.run(handle.decision(poll_interval=0.25, sleep=fake_sleep))
    assert naps == [0.25, 0.25]
    assert resumption.decision.outcome == "denied"


def test_waiting_gives_up_after_its_timeout_and_the_task_stays_parked(
    parking: Parking, queue: ApprovalQueue
) -> None:
    handle = parking.park("agent:audit", ask(queue).item_id, CONTEXT)
    naps: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        naps.append(seconds)

    with pytest.raises(DecisionWaitTimedOut):
        asyncio.run(handle.decision(poll_interval=1.0, timeout=3.0, sleep=fake_sleep))
    assert naps == [1.0, 1.0, 1.0]
    assert [t.task_id for t in parking.parked()] == [handle.task_id]
    with pytest.raises(ValidationError):
        asyncio.run(handle.decision(poll_interval=0, sleep=fake_sleep))


def test_a_timeout_expiry_resumes_the_task_too(
    parking: Parking, queue: ApprovalQueue, frozen_clock: FrozenClock
) -> None:
    handle = parking.park("agent:a", ask(queue, policy=DenyAfter(timeout_minutes=5)).item_id, {})
    frozen_clock.advance(timedelta(minutes=5))
    queue.sweep()
    resumption = handle.poll()
    assert resumption is not None
    assert (resumption.decision.outcome, resumption.decision.via) == ("expired", "timeout")


def test_another_process_resumes_the_task_and_only_one_wins(
    parking: Parking,
    queue: ApprovalQueue,
    alice: Reviewer,
    database_url: str,
    frozen_clock: FrozenClock,
) -> None:
    item = ask(queue)
    handle = parking.park("agent:billing", item.item_id, CONTEXT)
    other_db = open_database(database_url)
    try:
        other = Parking(other_db, ApprovalQueue(other_db, frozen_clock), frozen_clock)
        elsewhere = other.handle(handle.task_id)
        assert elsewhere.item_id == item.item_id
        assert "park:" in repr(elsewhere)
        assert elsewhere.poll() is None
        queue.decide(item.item_id, alice, outcome="approved")
        resumption = elsewhere.poll()
        assert resumption is not None
        assert resumption.context == CONTEXT
        with pytest.raises(AlreadyResumed):
            handle.poll()
    finally:
        other_db.dispose()


def test_a_cancelled_item_never_resumes_its_task(parking: Parking, queue: ApprovalQueue) -> None:
    item = ask(queue)
    handle = parking.park("agent:a", item.item_id, {})
    queue.cancel(item.item_id, cancelled_by="resolution")
    with pytest.raises(ApprovalCancelled):
        handle.poll()


def test_parking_refuses_unknown_items_empty_agents_and_non_json_context(
    parking: Parking, queue: ApprovalQueue
) -> None:
    item = ask(queue)
    with pytest.raises(NotFound):
        parking.park("agent:a", "apr:00000000-0000-4000-8000-000000000000", {})
    with pytest.raises(ValidationError):
        parking.park("", item.item_id, {})
    with pytest.raises(ValidationError) as raised:
        parking.park("agent:a", item.item_id, {"when": object()})
    assert raised.value.code == "approvals.context_not_json"
    with pytest.raises(NotFound):
        parking.handle("park:00000000-0000-4000-8000-000000000000")
    assert parking.parked() == []


def test_an_agent_acting_for_itself_parks_only_on_an_item_it_is_party_to(
    parking: Parking, queue: ApprovalQueue
) -> None:
    item = ask(queue)
    with pytest.raises(NotAParty) as refused:
        parking.park("agent:stranger", item.item_id, CONTEXT, party_only=True)
    assert refused.value.code == "approvals.not_a_party"
    assert refused.value.context["rule"] == "an agent acts only in a case it is party to"
    assert parking.parked() == []  # nothing written
    parking.park("agent:audit", item.item_id, CONTEXT, party_only=True)
    parking.park("graph:thread-1", item.item_id, CONTEXT)  # an orchestrator parks for its agents
    assert len(parking.parked()) == 2
