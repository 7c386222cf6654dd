"""``AccordApprovals`` with the real OpenAI Agents SDK, offline (a scripted model): people
decide tool calls in Accord, each approval is used once at execution, a denial's reason or an
expiry reaches the model, and a saved run approved and resumed twice runs its tool once."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import subprocess
import sys
from collections.abc import Callable, Coroutine, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, Runner, RunState, function_tool
from agents.testing import ScriptedModel, assistant_message, function_call
from sqlalchemy import update

from accord.app import Accord
from accord.approvals import ApprovalStatus
from accord.cases import SettleStatus
from accord.clock import FrozenClock
from accord.errors import AccordError
from accord.integrations.openai_agents import AccordApprovals
from accord.store.tables import parked_tasks

from ..e2e._support import reviewer_key, write_config


def synchronously(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test on its own event loop (pytest sees the test's own parameters)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


@pytest.fixture(autouse=True)
def _no_tracing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_AGENTS_DISABLE_TRACING", "1")


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    config = write_config(
        tmp_path,
        {
            "approvals": {
                "principals": {"human:alice": []},
                "timeout_policy": {"kind": "deny", "timeout_minutes": 60},
            }
        },
    )
    opened = Accord.open(
        config, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
    )
    yield opened
    opened.close()


class Shop:
    """A refund tool behind Accord's gate, and what it actually ran."""

    def __init__(self, accord: Accord) -> None:
        self.ran: list[tuple[int, float]] = []
        self.gate = AccordApprovals(
            accord,
            agent_id="agent:support",
            gate="refunds",
            requires_people=lambda _tool, args: float(args.get("amount", 0)) > 1000,
        )

        @function_tool(
            needs_approval=self.gate.needs_approval("refund"),
            tool_input_guardrails=[self.gate.guardrail()],
        )
        def refund(order: int, amount: float) -> str:
            """Refund an order."""
            self.ran.append((order, amount))
            return f"refunded {amount}"

        self.tool = refund

    def agent(self, *calls: dict[str, Any], replies: int = 3) -> tuple[Agent[Any], ScriptedModel]:
        steps: list[Any] = []
        if calls:
            steps.append([function_call("refund", c, call_id=f"call-{c['order']}") for c in calls])
        steps += [[assistant_message(f"reply {n}")] for n in range(replies)]
        model = ScriptedModel(steps)
        return Agent(name="support", model=model, tools=[self.tool]), model


def _last_tool_output(model: ScriptedModel) -> str:
    outputs = [i for i in model.calls[-1].input if i.get("type") == "function_call_output"]
    return str(outputs[-1]["output"])


@synchronously
async def test_an_approved_call_runs_once_even_when_the_saved_run_is_resumed_twice(
    accord: Accord,
) -> None:
    shop = Shop(accord)
    agent, _ = shop.agent({"order": 991, "amount": 18000.0})
    result = await Runner.run(agent, "refund order 991")
    parked = await shop.gate.park(result, run_key="order-991")
    assert await shop.gate.resume(parked.task_id, agent=agent) is None  # people still decide
    item_id = parked.items["call-991"]
    accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="approve", reason="ok")
    first = await shop.gate.resume(parked.task_id, agent=agent)
    second = await shop.gate.resume(parked.task_id, agent=agent)
    assert first is not None
    assert second is not None
    assert shop.ran == [(991, 18000.0)]
    receipt = first.receipts["call-991"]
    assert (receipt.verdict, receipt.choice, receipt.decided_by) == (
        "chosen",
        "approve",
        "human:alice",
    )
    root = accord.trust_root()
    receipt.verify({root.kid: root.public_key})


@synchronously
async def test_a_denial_reaches_the_model_as_the_rejection_and_the_tool_does_not_run(
    accord: Accord,
) -> None:
    shop = Shop(accord)
    agent, model = shop.agent({"order": 992, "amount": 5000.0})
    parked = await shop.gate.park(await Runner.run(agent, "refund 992"), run_key="order-992")
    accord.decide(
        parked.items["call-992"],
        reviewer_key(accord, "human:alice"),
        deny=True,
        reason="the order was never paid",
    )
    resumed = await shop.gate.resume(parked.task_id, agent=agent)
    assert resumed is not None
    assert shop.ran == []
    assert _last_tool_output(model) == "rejected by human:alice: the order was never paid"


@synchronously
async def test_an_expired_approval_is_recorded_expired_and_the_tool_does_not_run(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    shop = Shop(accord)
    agent, model = shop.agent({"order": 993, "amount": 5000.0})
    parked = await shop.gate.park(await Runner.run(agent, "refund 993"), run_key="order-993")
    frozen_clock.advance(timedelta(hours=2))
    accord.sweep()
    item = accord.approvals.get(parked.items["call-993"])
    assert item.status is ApprovalStatus.EXPIRED  # expired, not denied by a person
    assert accord.cases.get(item.case_id).status is SettleStatus.EXPIRED
    resumed = await shop.gate.resume(parked.task_id, agent=agent)
    assert resumed is not None
    assert shop.ran == []
    assert "expired" in _last_tool_output(model)
    assert resumed.receipts["call-993"].verdict == "expired"


@synchronously
async def test_two_calls_in_one_turn_are_two_items_decided_each_on_its_own(
    accord: Accord,
) -> None:
    shop = Shop(accord)
    agent, _ = shop.agent({"order": 1, "amount": 2000.0}, {"order": 2, "amount": 3000.0})
    parked = await shop.gate.park(await Runner.run(agent, "two refunds"), run_key="pair")
    assert set(parked.items) == {"call-1", "call-2"}
    alice = reviewer_key(accord, "human:alice")
    accord.decide(parked.items["call-1"], alice, choice="approve", reason="ok")
    accord.decide(parked.items["call-2"], alice, choice="reject", reason="duplicate")
    assert await shop.gate.resume(parked.task_id, agent=agent) is not None
    assert shop.ran == [(1, 2000.0)]


@synchronously
async def test_the_sdk_approving_a_call_accord_did_not_approve_does_not_run_it(
    accord: Accord,
) -> None:
    shop = Shop(accord)
    agent, model = shop.agent({"order": 994, "amount": 9000.0})
    result = await Runner.run(agent, "refund 994")
    state = result.to_state()
    for interruption in state.get_interruptions():
        state.approve(interruption)  # the SDK driven directly, Accord never asked
    await Runner.run(agent, state)
    assert shop.ran == []
    assert _last_tool_output(model).startswith("not approved in Accord")


@synchronously
async def test_the_predicate_writes_nothing_and_a_small_refund_needs_no_people(
    accord: Accord,
) -> None:
    shop = Shop(accord)
    agent, _ = shop.agent({"order": 5, "amount": 20.0})
    entries = accord.ledger.size()
    result = await Runner.run(agent, "refund 5")
    assert result.interruptions == []
    assert shop.ran == [(5, 20.0)]
    assert accord.ledger.size() == entries


@synchronously
async def test_parking_the_same_run_again_writes_nothing(accord: Accord) -> None:
    shop = Shop(accord)
    agent, _ = shop.agent({"order": 995, "amount": 9000.0})
    result = await Runner.run(agent, "refund 995")
    first = await shop.gate.park(result, run_key="order-995")
    entries = accord.ledger.size()
    again = await shop.gate.park(result, run_key="order-995")
    assert again == first
    assert accord.ledger.size() == entries


@synchronously
async def test_a_tampered_saved_run_is_refused_and_nothing_runs(accord: Accord) -> None:
    shop = Shop(accord)
    agent, _ = shop.agent({"order": 996, "amount": 9000.0})
    parked = await shop.gate.park(await Runner.run(agent, "refund 996"), run_key="order-996")
    accord.decide(
        parked.items["call-996"], reviewer_key(accord, "human:alice"), choice="approve", reason="ok"
    )
    task = accord.parking.get(parked.task_id)
    forged = json.loads(json.dumps(task.context).replace("9000.0", "90000.0"))
    assert forged != task.context
    with accord.db.write() as conn:
        conn.execute(
            update(parked_tasks)
            .where(parked_tasks.c.task_id == parked.task_id)
            .values(context=json.dumps(forged, sort_keys=True))
        )
    with pytest.raises(AccordError) as refused:
        await shop.gate.resume(parked.task_id, agent=agent)
    assert refused.value.code == "integrations.snapshot_tampered"
    assert shop.ran == []


@synchronously
async def test_parallel_agents_final_outputs_are_settled_in_one_call(accord: Accord) -> None:
    shop = Shop(accord)
    results = {}
    for name, total in (("agent:a", "1450"), ("agent:b", "1450"), ("agent:c", "1200")):
        agent = Agent(name=name.split(":")[1], model=ScriptedModel([[assistant_message(total)]]))
        results[name] = await Runner.run(agent, "total of invoice 4411?")
    case = await shop.gate.settle_outputs("Total of invoice 4411", results)
    assert [p.agent for p in case.positions] == ["agent:a", "agent:b", "agent:c"]
    assert case.decision is not None
    assert case.decision.winners == ("agent:a", "agent:b")



@synchronously
async def test_other_arguments_than_people_approved_are_refused_without_using_the_approval(
    accord: Accord,
) -> None:
    shop = Shop(accord)
    agent, _ = shop.agent({"order": 997, "amount": 9000.0})
    parked = await shop.gate.park(await Runner.run(agent, "refund 997"), run_key="order-997")
    accord.decide(
        parked.items["call-997"], reviewer_key(accord, "human:alice"), choice="approve", reason="ok"
    )
    with shop.gate.executing(parked.task_id):
        raised = shop.gate.consume("refund", "call-997", '{"order": 997, "amount": 90000.0}')
        assert raised is not None
        assert "differ from the ones people approved" in raised
        # the same arguments in another key order and spacing are the same call
        assert shop.gate.consume("refund", "call-997", '{"amount":9000.0, "order":997}') is None
        used = shop.gate.consume("refund", "call-997", '{"order":997,"amount":9000.0}')
        assert used is not None
        assert "was used" in used
    outside = shop.gate.consume("refund", "call-997", '{"order":997,"amount":9000.0}')
    assert outside is not None
    assert outside.startswith("not approved in Accord")


RESUMER = """
import asyncio, sys
from agents import Agent, function_tool
from agents.testing import ScriptedModel, assistant_message
from accord import Accord
from accord.integrations.openai_agents import AccordApprovals

accord = Accord.open(sys.argv[1], db_url=sys.argv[2], keys_dir=sys.argv[3])
gate = AccordApprovals(accord, agent_id="agent:support", gate="refunds")
ran = []

@function_tool(
    needs_approval=gate.needs_approval("refund"), tool_input_guardrails=[gate.guardrail()]
)
def refund(order: int, amount: float) -> str:
    '''Refund an order.'''
    ran.append(order)
    return "refunded"

agent = Agent(name="support", model=ScriptedModel([[assistant_message("done")]]), tools=[refund])
resumed = asyncio.run(gate.resume(sys.argv[4], agent=agent))
print(resumed.result.final_output, ran, resumed.receipts["call-998"].verdict)
accord.close()
"""


def test_another_process_resumes_the_parked_run(tmp_path: Path) -> None:
    config = write_config(tmp_path, {"approvals": {"principals": {"human:alice": []}}})
    db_url = f"sqlite:///{tmp_path / 'shared.db'}"
    accord = Accord.open(config, db_url=db_url, keys_dir=tmp_path / "keys")
    try:
        shop = Shop(accord)
        agent, _ = shop.agent({"order": 998, "amount": 9000.0})

        async def parked_run() -> str:
            parked = await shop.gate.park(await Runner.run(agent, "refund"), run_key="o-998")
            return parked.task_id + " " + parked.items["call-998"]

        task_id, item_id = asyncio.run(parked_run()).split()
        accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="approve", reason="ok")
    finally:
        accord.close()
    env = {**os.environ, "OPENAI_AGENTS_DISABLE_TRACING": "1"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    done = subprocess.run(
        [sys.executable, "-c", RESUMER, str(config), db_url, str(tmp_path / "keys"), task_id],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "done [998] chosen"
    assert shop.ran == []  # this process ran nothing: the other one did


@synchronously
async def test_a_call_the_sdk_interrupts_without_asking_the_predicate_is_still_queued(
    accord: Accord,
) -> None:
    shop = Shop(accord)
    # 18000 (an int) for `amount: float`: the SDK coerces it, skips the predicate, interrupts
    agent, _ = shop.agent({"order": 999, "amount": 18000})
    parked = await shop.gate.park(await Runner.run(agent, "refund 999"), run_key="order-999")
    assert set(parked.items) == {"call-999"}
    accord.decide(
        parked.items["call-999"], reviewer_key(accord, "human:alice"), choice="approve", reason="ok"
    )
    assert await shop.gate.resume(parked.task_id, agent=agent) is not None
    assert shop.ran == [(999, 18000.0)]


@synchronously
async def test_one_saved_run_state_approved_in_the_sdk_and_run_twice_runs_the_tool_once(
    accord: Accord,
) -> None:
    shop = Shop(accord)
    agent, _ = shop.agent({"order": 990, "amount": 9000.0}, replies=4)
    result = await Runner.run(agent, "refund 990")
    saved = result.to_state().to_json()  # the SDK's own snapshot, as an app would keep it
    parked = await shop.gate.park(result, run_key="order-990")
    accord.decide(
        parked.items["call-990"], reviewer_key(accord, "human:alice"), choice="approve", reason="ok"
    )
    for _ in range(2):  # loaded, approved and run twice (SDK issue: the tool ran twice)
        state = await RunState.from_json(agent, saved)
        for interruption in state.get_interruptions():
            state.approve(interruption)
        with shop.gate.executing(parked.task_id):
            await Runner.run(agent, state)
    assert shop.ran == [(990, 9000.0)]
