"""Deadlines are rows: the sweeper applies each item's timeout policy exactly once."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from accord.approvals import (
    TIMEOUT_DECIDER,
    AlreadyDecided,
    ApprovalQueue,
    ApprovalStatus,
    DenyAfter,
    EscalationChain,
    EscalationStep,
    Reviewer,
    Tiered,
    TierRule,
    WaitForever,
)
from accord.clock import FrozenClock
from accord.errors import ValidationError
from accord.store import Database, open_database
from tests.approvals.conftest import EventLog, ask, reviewer

CHAIN = EscalationChain(
    steps=(
        EscalationStep(role="lead", timeout_minutes=30),
        EscalationStep(role="director", timeout_minutes=60),
    ),
    on_chain_exhausted="approve",
)


def test_deny_after_expires_the_item_rather_than_denying_it(
    queue: ApprovalQueue, frozen_clock: FrozenClock, event_log: EventLog, alice: Reviewer
) -> None:
    item = ask(queue, policy=DenyAfter(timeout_minutes=45))
    assert item.deadline == frozen_clock.now() + timedelta(minutes=45)
    frozen_clock.advance(timedelta(minutes=44))
    assert queue.sweep() == []
    frozen_clock.advance(timedelta(minutes=1))
    [expired] = queue.sweep()
    assert expired.status is ApprovalStatus.EXPIRED
    decision = expired.decision
    assert decision is not None
    assert (decision.outcome, decision.choice, decision.via, decision.decided_by) == (
        "expired",
        "deny",
        "timeout",
        TIMEOUT_DECIDER,
    )
    assert expired.deadline is None
    assert queue.list(status="denied") == []
    assert event_log.records("approval_expired")[0]["choice"] == "deny"
    with pytest.raises(AlreadyDecided) as raised:
        queue.decide(item.item_id, alice, outcome="approved")
    assert raised.value.context["decided_by"] == TIMEOUT_DECIDER


def test_tiered_acts_by_risk(queue: ApprovalQueue, frozen_clock: FrozenClock) -> None:
    policy = Tiered(
        tiers={
            "low": TierRule(timeout_minutes=10, on_timeout="approve"),
            "high": TierRule(timeout_minutes=20, on_timeout="deny"),
            "critical": TierRule(on_timeout="wait"),
        }
    )
    low = ask(queue, policy=policy, risk="low")
    high = ask(queue, policy=policy, risk="high")
    critical = ask(queue, policy=policy, risk="critical")
    assert critical.deadline is None
    frozen_clock.advance(timedelta(minutes=10))
    assert [i.item_id for i in queue.sweep()] == [low.item_id]
    frozen_clock.advance(timedelta(minutes=10))
    assert [i.item_id for i in queue.sweep()] == [high.item_id]
    frozen_clock.advance(timedelta(days=365))
    assert queue.sweep() == []
    choices = {i.item_id: i.decision.choice for i in queue.list(status="expired") if i.decision}
    assert choices == {low.item_id: "approve", high.item_id: "deny"}
    assert queue.pending() == [critical]


def test_an_escalation_chain_moves_roles_then_applies_its_fallback(
    queue: ApprovalQueue, frozen_clock: FrozenClock, event_log: EventLog
) -> None:
    item = ask(queue, policy=CHAIN)
    assert (item.current_role, item.escalation_step) == ("lead", 0)
    frozen_clock.advance(timedelta(minutes=30))
    [escalated] = queue.sweep()
    assert (escalated.current_role, escalated.escalation_step) == ("director", 1)
    assert escalated.deadline == frozen_clock.now() + timedelta(minutes=60)
    assert escalated.is_pending
    assert escalated.version == 2
    assert queue.pending(role="lead") == []
    assert queue.pending(role="director") == [escalated]
    escalation = event_log.records("approval_escalated")[0]
    assert (escalation["from_role"], escalation["current_role"]) == ("lead", "director")

    lead = reviewer("user:lena", "lead")
    with pytest.raises(Exception, match=r"approvals\.forbidden"):
        queue.decide(item.item_id, lead, outcome="approved")

    frozen_clock.advance(timedelta(minutes=60))
    [exhausted] = queue.sweep()
    assert exhausted.status is ApprovalStatus.EXPIRED
    assert exhausted.decision is not None
    assert exhausted.decision.choice == "approve"


def test_a_chain_that_ends_in_wait_clears_the_deadline_and_keeps_the_last_role(
    queue: ApprovalQueue, frozen_clock: FrozenClock, event_log: EventLog
) -> None:
    policy = EscalationChain(
        steps=(EscalationStep(role="lead", timeout_minutes=5),), on_chain_exhausted="wait"
    )
    item = ask(queue, policy=policy)
    frozen_clock.advance(timedelta(minutes=5))
    [waiting] = queue.sweep()
    assert waiting.is_pending
    assert waiting.deadline is None
    assert waiting.current_role == "lead"
    assert event_log.kinds[-1] == "approval_deadline_cleared"
    frozen_clock.advance(timedelta(days=30))
    assert queue.sweep() == []
    assert queue.get(item.item_id) == waiting


def test_wait_forever_never_expires(queue: ApprovalQueue, frozen_clock: FrozenClock) -> None:
    item = ask(queue, policy=WaitForever())
    frozen_clock.advance(timedelta(days=3650))
    assert queue.sweep() == []
    assert queue.get(item.item_id).is_pending


def test_deadlines_survive_a_restart(database_url: str, frozen_clock: FrozenClock) -> None:
    first = open_database(database_url)
    item = ask(ApprovalQueue(first, frozen_clock), policy=DenyAfter(timeout_minutes=15))
    first.dispose()  # the process that asked is gone

    frozen_clock.advance(timedelta(minutes=15))
    second = open_database(database_url)
    try:
        [expired] = ApprovalQueue(second, frozen_clock).sweep()
        assert expired.item_id == item.item_id
        assert expired.status is ApprovalStatus.EXPIRED
    finally:
        second.dispose()


def test_a_sweep_applies_once_even_when_repeated_or_run_by_two_queues(
    db: Database, database_url: str, frozen_clock: FrozenClock, event_log: EventLog
) -> None:
    queue = ApprovalQueue(db, frozen_clock, on_event=event_log)
    items = [ask(queue, policy=DenyAfter(timeout_minutes=1)) for _ in range(3)]
    frozen_clock.advance(timedelta(minutes=1))
    other_db = open_database(database_url)
    try:
        other = ApprovalQueue(other_db, frozen_clock, on_event=event_log)
        assert len(queue.sweep()) == 3
        assert queue.sweep() == []
        assert other.sweep() == []
    finally:
        other_db.dispose()
    assert event_log.kinds.count("approval_expired") == len(items)
    assert all(i.version == 2 for i in queue.list(status="expired"))


def test_a_sweep_takes_at_most_limit_items_oldest_deadline_first(
    queue: ApprovalQueue, frozen_clock: FrozenClock
) -> None:
    late = ask(queue, policy=DenyAfter(timeout_minutes=20))
    early = ask(queue, policy=DenyAfter(timeout_minutes=10))
    later = frozen_clock.now() + timedelta(minutes=20)
    assert [i.item_id for i in queue.sweep(now=later, limit=1)] == [early.item_id]
    assert [i.item_id for i in queue.sweep(now=later, limit=1)] == [late.item_id]


def test_a_sweep_refuses_a_naive_time(queue: ApprovalQueue) -> None:
    with pytest.raises(ValidationError):
        queue.sweep(now=datetime(2026, 1, 1))


def test_listing_by_an_unknown_status_names_the_valid_ones(queue: ApprovalQueue) -> None:
    with pytest.raises(ValidationError) as err:
        queue.list(status="bogus")
    assert err.value.context["field"] == "status"
    assert "pending" in err.value.context["rule"]


def test_sweep_due_applies_every_due_deadline_in_batches_not_only_the_first_hundred(
    queue: ApprovalQueue, frozen_clock: FrozenClock, event_log: EventLog
) -> None:
    items = [ask(queue, policy=DenyAfter(timeout_minutes=5)) for _ in range(230)]
    frozen_clock.advance(timedelta(minutes=5))
    event_log.batches.clear()
    swept = queue.sweep_due(batch=100)
    assert len(swept) == 230
    assert {i.item_id for i in swept} == {i.item_id for i in items}
    assert [len(batch) for batch in event_log.batches] == [100, 100, 30]  # one per transaction
    assert queue.list(status="pending") == []
    assert queue.sweep_due() == []


def test_sweep_due_escalates_each_item_once_per_passed_deadline(
    queue: ApprovalQueue, frozen_clock: FrozenClock
) -> None:
    for _ in range(3):
        ask(queue, policy=CHAIN)
    frozen_clock.advance(timedelta(minutes=30))
    swept = queue.sweep_due(batch=2)
    assert [i.current_role for i in swept] == ["director"] * 3
    assert queue.sweep_due(batch=2) == []


def test_sweep_due_refuses_an_empty_batch(queue: ApprovalQueue) -> None:
    with pytest.raises(ValidationError):
        queue.sweep_due(batch=0)
