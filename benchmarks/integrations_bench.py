"""Integrations (issue 29): each adapter against the library call it wraps, in the same run.

1. LangGraph: a 3-branch ``Send`` fan-out joined by ``settle_node`` against the same graph joined
   by a hand-written node calling ``accord.settle`` (same in-memory checkpointer, alternating, a
   new thread per run); target ≤ 1.10× at p50. (That a resumed join writes nothing is a test:
   tests/integrations/test_langgraph.py.)
2. MCP ``settle``: in-process client against ``accord.settle`` (target ≤ +1 ms at p50) and over
   stdio from a subprocess (``accord mcp --as``; target ≤ +3 ms at p50), p99 reported.
3. OpenAI Agents SDK: the tool input guardrail's check-and-consume of one approved call
   (``AccordApprovals.consume`` within ``executing``: argument digest, the per-call task's
   resumption) against reading the approval item (``accord.approvals.get``); target ≤ 2 ms p50.
"""

from __future__ import annotations

import asyncio
import operator
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any, TypedDict

from agents import Agent, Runner, function_tool
from agents.testing import ScriptedModel, function_call
from common import Result
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send
from mcp import Client, StdioServerParameters

from accord import Accord
from accord.crypto import Ed25519Signer
from accord.integrations.langgraph import settle_node
from accord.integrations.mcp import build_server
from accord.integrations.openai_agents import AccordApprovals

SUBJECT = "Total of invoice {n}"


def _positions(n: int) -> list[dict[str, Any]]:
    return [
        {"agent": "agent:a", "output": 1200 + n, "confidence": 0.9},
        {"agent": "agent:b", "output": 1450 + n, "confidence": 0.5},
        {"agent": "agent:c", "output": 1200 + n, "confidence": 0.7},
    ]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class _State(TypedDict, total=False):
    positions: Annotated[list[dict[str, Any]], operator.add]
    accord: dict[str, Any]
    n: int


def _langgraph(accord: Accord, runs: int) -> list[Result]:
    def build(join: Any) -> Any:
        def branch(arg: dict[str, Any]) -> dict[str, Any]:
            return {"positions": [arg["position"]]}

        def fan_out(state: _State) -> list[Send]:
            return [Send("branch", {"position": p}) for p in _positions(state["n"])]

        builder = StateGraph(_State)
        builder.add_node("branch", branch)  # type: ignore[call-overload]
        builder.add_node("join", join)
        builder.add_conditional_edges(START, fan_out, ["branch"])
        builder.add_edge("branch", "join")
        builder.add_edge("join", END)
        return builder.compile(checkpointer=InMemorySaver())

    def hand_join(state: _State) -> dict[str, Any]:
        case = accord.settle(SUBJECT.format(n=state["n"]), state["positions"])
        return {"accord": {"status": case.status.value, "case_id": case.case_id}}

    adapter_join = settle_node(accord, subject=lambda state: SUBJECT.format(n=state["n"]))
    adapter, hand = build(adapter_join), build(hand_join)
    timings: dict[str, list[float]] = {"adapter": [], "hand": []}
    for n in range(runs):
        for name, graph in (("adapter", adapter), ("hand", hand)):
            config = {"configurable": {"thread_id": f"{name}-{n}"}}
            started = time.perf_counter()
            graph.invoke({"n": n}, config)
            timings[name].append(time.perf_counter() - started)
    hand_p50 = statistics.median(timings["hand"]) * 1000
    adapter_p50 = statistics.median(timings["adapter"]) * 1000
    ratio = adapter_p50 / hand_p50
    return [
        Result(
            "langgraph fan-out, hand-written join (baseline)",
            hand_p50,
            "ms p50",
            notes=f"p99 {_pct(timings['hand'], 0.99) * 1000:.2f} ms, {runs} runs",
        ),
        Result(
            "langgraph fan-out, settle_node join",
            adapter_p50,
            "ms p50",
            baseline=f"{hand_p50:.2f} ms",
            ratio=ratio,
            target="≤ 1.10×",
            passed=ratio <= 1.10,
            notes=f"p99 {_pct(timings['adapter'], 0.99) * 1000:.2f} ms",
        ),
    ]


async def _mcp_calls(client: Any, runs: int, prefix: str) -> list[float]:
    out = []
    for n in range(runs):
        args = {
            "subject": SUBJECT.format(n=n),
            "positions": _positions(n),
            "idempotency_key": f"{prefix}-{n}",
        }
        started = time.perf_counter()
        reply = await client.call_tool("settle", args)
        out.append(time.perf_counter() - started)
        if reply.is_error:
            raise RuntimeError(f"MCP settle refused: {reply}")
    return out


def _mcp(accord: Accord, folder: Path, db_url: str, runs: int) -> list[Result]:
    library = []
    for n in range(runs):
        started = time.perf_counter()
        accord.settle(SUBJECT.format(n=n), _positions(n))
        library.append(time.perf_counter() - started)

    async def in_process() -> list[float]:
        async with Client(build_server(accord, agent="agent:a")) as client:
            return await _mcp_calls(client, runs, "inproc")

    inproc = asyncio.run(in_process())
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-c",
            "from accord.cli.main import main; main()",
            "mcp",
            "--as",
            "agent:a",
            "--db",
            db_url,
            "--keys",
            str(folder / "keys"),
        ],
    )

    async def over_stdio() -> list[float]:
        async with Client(params) as client:
            await _mcp_calls(client, 3, "warm")
            return await _mcp_calls(client, runs, "stdio")

    stdio = asyncio.run(over_stdio())
    lib_p50 = statistics.median(library) * 1000
    results = [
        Result(
            "library settle (baseline)",
            lib_p50,
            "ms p50",
            notes=f"p99 {_pct(library, 0.99) * 1000:.2f} ms, {runs} calls",
        )
    ]
    for name, values, allowed in (("in-process", inproc, 1.0), ("stdio", stdio, 3.0)):
        p50 = statistics.median(values) * 1000
        results.append(
            Result(
                f"MCP settle, {name}",
                p50,
                "ms p50",
                baseline=f"{lib_p50:.2f} ms",
                ratio=p50 / lib_p50,
                target=f"≤ +{allowed:.0f} ms",
                passed=p50 - lib_p50 <= allowed,
                notes=f"+{p50 - lib_p50:.2f} ms; p99 {_pct(values, 0.99) * 1000:.2f} ms",
            )
        )
    return results


def _guardrail(accord: Accord, runs: int) -> list[Result]:
    gate = AccordApprovals(accord, agent_id="agent:support", gate="bench")

    @function_tool(needs_approval=gate.needs_approval("refund"))
    def refund(order: int) -> str:
        """Refund an order."""
        return str(order)

    calls = [function_call("refund", {"order": n}, call_id=f"c{n}") for n in range(runs)]
    agent = Agent(name="support", model=ScriptedModel([calls]), tools=[refund])

    async def parked_run() -> Any:
        return await gate.park(await Runner.run(agent, "refunds"), run_key="bench")

    parked = asyncio.run(parked_run())
    reviewer = Ed25519Signer.generate()
    accord.register_reviewer_key(reviewer.public_key, "human:bench")
    for item_id in parked.items.values():
        accord.decide(item_id, reviewer, choice="approve", reason="bench")
    reads, consumes = [], []
    with gate.executing(parked.task_id):
        for n in range(runs):
            started = time.perf_counter()
            accord.approvals.get(parked.items[f"c{n}"])
            reads.append(time.perf_counter() - started)
            started = time.perf_counter()
            refused = gate.consume("refund", f"c{n}", f'{{"order": {n}}}')
            consumes.append(time.perf_counter() - started)
            if refused is not None:
                raise RuntimeError(f"the guardrail refused an approved call: {refused}")
    read_p50, p50 = statistics.median(reads) * 1000, statistics.median(consumes) * 1000
    return [
        Result(
            "approval item read (baseline)",
            read_p50,
            "ms p50",
            notes=f"p99 {_pct(reads, 0.99) * 1000:.2f} ms, {runs} items",
        ),
        Result(
            "Agents SDK guardrail check-and-consume",
            p50,
            "ms p50",
            baseline=f"{read_p50:.2f} ms",
            ratio=p50 / read_p50,
            target="≤ 2 ms",
            passed=p50 <= 2.0,
            notes=f"p99 {_pct(consumes, 0.99) * 1000:.2f} ms",
        ),
    ]


def run(quick: bool) -> list[Result]:
    runs = 20 if quick else 200
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        db_url = f"sqlite:///{folder / 'bench.db'}"
        config = folder / "accord.yaml"
        config.write_text('{"approvals": {"principals": {"human:bench": []}}}', encoding="utf-8")
        accord = Accord.open(config, db_url=db_url, keys_dir=folder / "keys")
        try:
            results = _langgraph(accord, runs)
            results += _mcp(accord, folder, db_url, runs)
            results += _guardrail(accord, runs)
        finally:
            accord.close()
    return results
