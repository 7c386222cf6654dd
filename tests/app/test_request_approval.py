"""``Accord.request_approval``: an agent's proposed action goes straight to people as an
approval item (a gate) — a confident agent never wins it at tier 1 — and settles through the
same decision as any escalated case; a keyed retry writes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from accord.app import Accord
from accord.cases import Case, SettleStatus
from accord.clock import FrozenClock
from accord.conflicts import Tier
from accord.errors import ValidationError
from accord.store import IdempotencyConflict

from ..e2e._support import reviewer_key, write_config

REFUND = {"tool": "refund", "arguments": {"order": 991, "amount": 18000}}


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    # the company policy would let the more confident side win at tier 1
    config = write_config(
        tmp_path,
        {
            "conflict_resolution": {"strategy": "authority"},
            "approvals": {"principals": {"human:alice": []}},
        },
    )
    opened = Accord.open(
        config, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
    )
    yield opened
    opened.close()


def _request(accord: Accord, key: str | None = None, **changes: object) -> object:
    fields: dict[str, object] = {
        "agent_id": "agent:support",
        "proposal": REFUND,
        "gate": "refunds",
        "reason": "the customer was charged twice",
    }
    fields.update(changes)
    return accord.request_approval(
        "refund(order=991, amount=18000)", idempotency_key=key, **fields  # type: ignore[arg-type]
    )


def test_a_proposed_action_goes_straight_to_people_with_approve_and_reject(
    accord: Accord,
) -> None:
    case = accord.request_approval(
        "refund(order=991, amount=18000)", agent_id="agent:support", proposal=REFUND, gate="refunds"
    )
    assert case.status is SettleStatus.ESCALATED
    assert case.tier is Tier.HUMAN_APPEAL
    assert case.decision is None
    assert case.approval_item_id is not None
    item = accord.approvals.get(case.approval_item_id)
    assert item.options == ("approve", "reject")
    assert '"amount": 18000' in item.summary  # people see the arguments they approve
    assert [p.agent for p in case.positions] == ["agent:support", "policy:refunds"]
    assert not any(a.decided for a in case.attempts)  # no tier-1 rung ran, none decided


def test_approving_it_settles_the_case_on_the_proposing_agent(accord: Accord) -> None:
    case = accord.request_approval(
        "refund(order=991, amount=18000)", agent_id="agent:support", proposal=REFUND, gate="refunds"
    )
    assert case.approval_item_id is not None
    accord.decide(
        case.approval_item_id, reviewer_key(accord, "human:alice"), choice="approve", reason="ok"
    )
    settled = accord.cases.get(case.case_id)
    assert settled.status is SettleStatus.SETTLED
    assert settled.decision is not None
    assert settled.decision.winners == ("agent:support",)
    accord.verify()


def test_a_retried_request_returns_the_same_case_and_writes_nothing(accord: Accord) -> None:
    first = _request(accord, "run-7:call-1")
    entries = accord.ledger.size()
    again = _request(accord, "run-7:call-1")
    assert again == first
    assert accord.ledger.size() == entries
    with pytest.raises(IdempotencyConflict):
        _request(accord, "run-7:call-1", proposal={"tool": "refund", "arguments": {"amount": 1}})
    assert accord.ledger.size() == entries


def test_a_settle_key_and_an_approval_key_of_the_same_string_are_different_keys(
    accord: Accord,
) -> None:
    accord.settle(
        "Total", [{"agent": "agent:a", "output": 1}, {"agent": "agent:b", "output": 2}],
        idempotency_key="same",
    )
    case = _request(accord, "same")  # the settle's key in another scope: no conflict
    assert isinstance(case, Case)
    assert case.approval_item_id is not None


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"gate": ""}, "gate"),
        ({"gate": "x" * 65}, "gate"),
        ({"agent_id": ""}, "agent_id"),
        ({"proposal": {"n": 2**80}}, "proposal"),
        ({"proposal": {"n": float("nan")}}, "proposal"),
    ],
)
def test_a_bad_request_is_refused_naming_the_field_and_nothing_is_written(
    accord: Accord, changes: dict[str, object], field: str
) -> None:
    entries = accord.ledger.size()
    with pytest.raises(ValidationError) as refused:
        _request(accord, **changes)
    assert str(refused.value.context.get("field", "")).startswith(field)
    assert accord.ledger.size() == entries


def test_from_an_event_loop_the_async_call_queues_it_and_a_retry_writes_nothing(
    accord: Accord,
) -> None:
    async def proposed() -> tuple[object, object, int, int]:
        first = await accord.request_approval_async(
            "refund(order=991)",
            agent_id="agent:support",
            proposal=REFUND,
            gate="refunds",
            idempotency_key="async-1",
        )
        entries = accord.ledger.size()
        again = await accord.request_approval_async(
            "refund(order=991)",
            agent_id="agent:support",
            proposal=REFUND,
            gate="refunds",
            idempotency_key="async-1",
        )
        return first, again, entries, accord.ledger.size()

    first, again, entries, after = asyncio.run(proposed())
    assert again == first
    assert entries == after
    assert isinstance(first, Case)
    assert first.approval_item_id is not None
