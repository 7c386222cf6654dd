"""Accord inside LangGraph: three branches fan out with ``Send``, ``settle_node`` joins them.

Offline and in seconds (no model, no network): `python examples/langgraph_fanout.py` after
`make setup`. The branches disagree on an invoice total, the policy sends the case to people,
the graph interrupts with the approval item's id, a reviewer decides with their reviewer key,
and the graph resumes with that decision — read from Accord's signed store, never from the
resume payload. Resuming before the decision is refused by LangGraph and changes nothing.

Pass a directory to keep the database and keys (default: a temporary one).
"""

from __future__ import annotations

import operator
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any, TypedDict

import yaml
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import is_invalid_resume
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, Send
from pydantic import ValidationError

from accord import Accord, AccordError
from accord.crypto import Ed25519Signer
from accord.integrations.langgraph import resume_command, settle_node

BRANCHES = {"agent:billing": 1200, "agent:audit": 1450, "agent:ledger": 1800}


class Branch(TypedDict):
    agent: str
    total: int


class Review(TypedDict, total=False):
    positions: Annotated[list[dict[str, Any]], operator.add]
    accord: dict[str, Any]


def build(accord: Accord) -> Any:
    def branch(arg: Branch) -> dict[str, Any]:  # an agent; here, a fixed answer
        return {"positions": [{"agent": arg["agent"], "output": arg["total"], "confidence": 0.8}]}

    join = settle_node(accord, subject="Total of invoice 4411", task_type="invoicing")

    def settle(state: Review) -> dict[str, Any]:
        return join(state)

    def fan_out(_: Review) -> list[Send]:
        return [Send("branch", {"agent": a, "total": t}) for a, t in BRANCHES.items()]

    graph = StateGraph(Review)
    graph.add_node("branch", branch)  # type: ignore[call-overload]  # a Send payload type
    graph.add_node("settle", settle)
    graph.add_conditional_edges(START, fan_out, ["branch"])
    graph.add_edge("branch", "settle")
    graph.add_edge("settle", END)
    return graph.compile(checkpointer=InMemorySaver())


def main(directory: Path) -> int:
    config = directory / "accord.yaml"
    config.write_text(
        yaml.safe_dump(
            {
                "conflict_resolution": {"strategy": "human"},
                "approvals": {"principals": {"human:alice": []}},
            }
        ),
        encoding="utf-8",
    )
    accord = Accord.open(
        config, db_url=f"sqlite:///{directory / 'accord.db'}", keys_dir=directory / "keys"
    )
    try:
        graph = build(accord)
        thread = {"configurable": {"thread_id": "invoice-4411"}}
        first = graph.invoke({}, thread, version="v2")
        (asked,) = first.interrupts
        item_id = asked.value["accord_item_id"]
        print(f"interrupted: people decide {item_id} (options {asked.value['options']})")

        try:  # resuming before anyone decided: refused, the interrupt stays answerable
            graph.invoke(Command(resume={"item_id": item_id}), thread, version="v2")
        except ValidationError as exc:
            if not is_invalid_resume(exc):
                raise
            print("a premature resume was refused; the graph waits")

        alice = Ed25519Signer.generate()
        accord.register_reviewer_key(alice.public_key, "human:alice")
        accord.decide(item_id, alice, choice="1450", reason="the surcharge is on the PO")

        done = graph.invoke(resume_command(accord, graph, thread), thread, version="v2")
        outcome = done.value["accord"]
        print(
            f"resumed: {outcome['status']}, answer {outcome['answer']}, "
            f"decided by {outcome['decided_by']}; case {outcome['case_id']}"
        )
        try:  # LangGraph would accept a second resume of the finished thread; Accord does not
            resume_command(accord, graph, thread)
        except AccordError as exc:
            print(f"a second resume was refused: {exc.code}")
        report = accord.verify()
        print(f"ledger verified: {report.entries} entries")
        return 0 if outcome["status"] == "settled" and outcome["answer"] == 1450 else 1
    finally:
        accord.close()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        target = Path(sys.argv[1])
        target.mkdir(parents=True, exist_ok=True)
        sys.exit(main(target))
    with tempfile.TemporaryDirectory() as tmp:
        sys.exit(main(Path(tmp)))
