"""Requesting and deciding approvals, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from accord.approvals import (
    AlreadyDecided,
    ApprovalQueue,
    ApprovalStatus,
    DecisionForbidden,
    EscalationChain,
    EscalationStep,
    Reviewer,
    WaitForever,
)
from accord.clock import FrozenClock
from accord.errors import AccordError, NotFound, ValidationError
from accord.limits import Limits
from accord.store import Database
from tests.approvals.conftest import EventLog, ask, reviewer

CHAIN = EscalationChain(
    steps=(EscalationStep(role="lead", timeout_minutes=30),), on_chain_exhausted="deny"
)


def test_a_request_is_pending_and_listed(queue: ApprovalQueue, event_log: EventLog) -> None:
    item = ask(queue)
    assert item.item_id.startswith("apr:")
    assert item.status is ApprovalStatus.PENDING
    assert item.deadline is None
    assert item.current_role is None
    assert queue.get(item.item_id) == item
    assert queue.pending() == [item]
    assert queue.list(status="pending", case_id="case:1") == [item]
    assert queue.list(case_id="case:other") == []
    assert event_log.kinds == ["approval_requested"]
    assert event_log.in_transaction == [True]


def test_a_person_approves_with_a_choice(
    queue: ApprovalQueue, alice: Reviewer, frozen_clock: FrozenClock, event_log: EventLog
) -> None:
    item = ask(queue)
    decided = queue.decide(
        item.item_id, alice, outcome="approved", choice="agent:audit", reason="tax applies"
    )
    assert decided.status is ApprovalStatus.APPROVED
    assert decided.version == item.version + 1
    decision = decided.decision
    assert decision is not None
    assert (decision.choice, decision.decided_by, decision.via) == (
        "agent:audit",
        "user:alice",
        "human",
    )
    assert decision.decided_at == frozen_clock.now()
    assert queue.get(item.item_id) == decided
    assert queue.pending() == []
    assert queue.list(status=ApprovalStatus.APPROVED) == [decided]
    assert event_log.records("approval_decided")[0]["decided_by"] == "user:alice"


def test_a_person_denies(queue: ApprovalQueue, alice: Reviewer) -> None:
    item = ask(queue)
    denied = queue.decide(item.item_id, alice, outcome="denied", reason="neither is right")
    assert denied.status is ApprovalStatus.DENIED
    assert denied.decision is not None
    assert denied.decision.choice is None


def test_a_second_decision_fails_and_names_who_decided(
    queue: ApprovalQueue, alice: Reviewer
) -> None:
    item = ask(queue)
    queue.decide(item.item_id, alice, outcome="approved", choice="approve")
    bob = reviewer("user:bob", "reviewer")
    with pytest.raises(AlreadyDecided) as raised:
        queue.decide(item.item_id, bob, outcome="denied")
    assert raised.value.code == "approvals.already_decided"
    assert raised.value.context["decided_by"] == "user:alice"
    assert "user:alice" in str(raised.value)
    assert queue.get(item.item_id).decision is not None


def test_a_choice_must_be_one_of_the_options(queue: ApprovalQueue, alice: Reviewer) -> None:
    item = ask(queue)
    with pytest.raises(ValidationError) as raised:
        queue.decide(item.item_id, alice, outcome="approved", choice="agent:nobody")
    assert raised.value.context["field"] == "choice"
    assert queue.get(item.item_id).is_pending


def test_the_outcome_is_approved_or_denied(queue: ApprovalQueue, alice: Reviewer) -> None:
    item = ask(queue)
    with pytest.raises(ValidationError):
        queue.decide(item.item_id, alice, outcome="expired")  # type: ignore[arg-type]


def test_an_item_offered_to_a_role_needs_that_role(queue: ApprovalQueue, alice: Reviewer) -> None:
    item = ask(queue, policy=CHAIN)
    assert item.current_role == "lead"
    with pytest.raises(DecisionForbidden) as raised:
        queue.decide(item.item_id, alice, outcome="approved")
    assert raised.value.code == "approvals.forbidden"
    assert raised.value.context["required_role"] == "lead"
    assert queue.pending(role="lead") == [item]
    assert queue.pending(role="reviewer") == []
    assert queue.pending_for(alice.principal) == []
    lead = reviewer("user:lena", "lead")
    assert queue.pending_for(lead.principal) == [item]
    assert queue.decide(item.item_id, lead, outcome="approved").status is ApprovalStatus.APPROVED


def test_cancelling_withdraws_a_pending_item(
    queue: ApprovalQueue, alice: Reviewer, event_log: EventLog
) -> None:
    item = ask(queue)
    cancelled = queue.cancel(item.item_id, cancelled_by="resolution", reason="settled by judge")
    assert cancelled.status is ApprovalStatus.CANCELLED
    assert cancelled.decision is None
    assert event_log.records("approval_cancelled")[0]["cancelled_by"] == "resolution"
    with pytest.raises(AlreadyDecided):
        queue.decide(item.item_id, alice, outcome="approved")


def test_bad_requests_and_unknown_items_are_refused(queue: ApprovalQueue) -> None:
    with pytest.raises(ValidationError) as raised:
        queue.request(
            case_id="case:1",
            title="t",
            summary="s",
            positions=[],
            analysis="",
            options=[],
            risk="medium",
            policy=CHAIN,
        )
    assert raised.value.code == "approvals.invalid"
    assert raised.value.context["field"] == "options"
    with pytest.raises(ValidationError):
        queue.list(status="lost")
    with pytest.raises(NotFound):
        queue.get("apr:00000000-0000-4000-8000-000000000000")


def test_a_request_joins_the_callers_transaction(queue: ApprovalQueue, db: Database) -> None:
    with db.write() as conn:
        item = queue.request_within(
            conn,
            case_id="case:9",
            title="t",
            summary="s",
            positions=[],
            analysis="",
            options=["approve", "deny"],
            risk="low",
            policy=CHAIN,
        )
    assert queue.get(item.item_id) == item


def test_a_stale_version_writes_nothing(
    queue: ApprovalQueue, db: Database, alice: Reviewer
) -> None:
    """Compare-and-set itself: a writer holding an old version of the item loses."""
    item = ask(queue)
    moved_on = item.model_copy(update={"version": 2})  # as if a sweeper got there first
    with db.write() as conn:
        assert queue._compare_and_set(conn, item, moved_on)
    with db.write() as conn:
        assert not queue._compare_and_set(conn, item, moved_on, raise_on_conflict=False)
    with db.write() as conn, pytest.raises(AccordError) as raised:
        queue._compare_and_set(conn, item, moved_on)
    assert raised.value.code == "approvals.conflict"

    decided = queue.decide(item.item_id, alice, outcome="approved")
    with db.write() as conn, pytest.raises(AlreadyDecided):
        queue._compare_and_set(conn, moved_on, decided)


@pytest.mark.parametrize("bad", ["ok\x00then", "bell\x07", "esc\x1b[31m", "rtl\u202eoverride"])
def test_control_characters_in_a_decisions_reasoning_are_refused(
    queue: ApprovalQueue, alice: Reviewer, bad: str
) -> None:
    item = ask(queue)
    with pytest.raises(ValidationError) as raised:
        queue.decide(item.item_id, alice, outcome="denied", reason=bad)
    assert raised.value.context["field"] == "reasoning"
    assert "printable" in raised.value.message
    assert queue.get(item.item_id).is_pending


def test_a_reasoning_over_several_lines_with_tabs_is_kept(
    queue: ApprovalQueue, alice: Reviewer
) -> None:
    item = ask(queue)
    decided = queue.decide(item.item_id, alice, outcome="denied", reason="first\n\tsecond")
    assert decided.decision is not None
    assert decided.decision.reason == "first\n\tsecond"


def test_an_option_text_as_long_as_an_admitted_output_is_kept(queue: ApprovalQueue) -> None:
    """A 10.4 MB answer is under ``limits.output_bytes`` (16 MiB): no inner cap refuses the
    item that offers it (issue 31)."""
    long = ("a" * 10_400_000, "b" * 10_400_000)
    assert len(long[0]) + 2 < Limits().output_bytes
    item = queue.request(
        case_id="case:big",
        title="Two long answers",
        summary="two agents wrote long answers",
        positions=[
            {"agent": "agent:billing", "answer": "option 1", "confidence": 0.9, "reasoning": "x"},
            {"agent": "agent:audit", "answer": "option 2", "confidence": 0.7, "reasoning": "y"},
        ],
        analysis="people decide",
        options=["option 1", "option 2"],
        option_texts=long,
        risk="medium",
        policy=WaitForever(),
    )
    assert queue.get(item.item_id).option_texts == long
