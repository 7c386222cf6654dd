"""``settle_node`` in a real LangGraph graph (offline, no model): a ``Send`` fan-out joined by
Accord; a node re-run writes nothing; people decide through an interrupt that only Accord's
store can answer; a wrong-item or premature resume leaves the interrupt answerable."""

from __future__ import annotations

import operator
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, TypedDict

import psycopg
import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.errors import is_invalid_resume
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, Send
from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from accord.app import Accord
from accord.audit import DecisionReceipt
from accord.clock import FrozenClock
from accord.errors import AccordError
from accord.integrations.langgraph import pending_items, resume_command, settle_node
from accord.store.tables import cases

from ..e2e._support import reviewer_key, write_config

BRANCHES = {"agent:a": 1200, "agent:b": 1450}


class Branch(TypedDict):
    agent: str
    total: int


class State(TypedDict, total=False):
    positions: Annotated[list[dict[str, Any]], operator.add]
    accord: dict[str, Any]


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


@pytest.fixture(params=["memory", "sqlite"])
def saver(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BaseCheckpointSaver[Any]]:
    if request.param == "memory":
        yield InMemorySaver()
        return
    conn = sqlite3.connect(tmp_path / "checkpoints.db", check_same_thread=False)
    try:
        yield SqliteSaver(conn)
    finally:
        conn.close()


def _graph(
    accord: Accord,
    saver: BaseCheckpointSaver[Any],
    branches: dict[str, int],
    runs: list[str] | None = None,
) -> Any:
    def branch(arg: Branch) -> dict[str, Any]:
        return {"positions": [{"agent": arg["agent"], "output": arg["total"], "confidence": 0.8}]}

    join = settle_node(accord, subject="Total of invoice 4411")

    def counted_join(state: State) -> dict[str, Any]:
        if runs is not None:
            runs.append("join")
        return join(state)

    def fan_out(_: State) -> list[Send]:
        return [Send("branch", {"agent": a, "total": t}) for a, t in branches.items()]

    builder = StateGraph(State)
    builder.add_node("branch", branch)  # type: ignore[call-overload]  # a Send payload type
    builder.add_node("join", counted_join)
    builder.add_conditional_edges(START, fan_out, ["branch"])
    builder.add_edge("branch", "join")
    builder.add_edge("join", END)
    return builder.compile(checkpointer=saver)


def _config(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def test_agreeing_branches_settle_without_people(
    accord: Accord, saver: BaseCheckpointSaver[Any]
) -> None:
    graph = _graph(accord, saver, {"agent:a": 1200, "agent:b": 1200})
    result = graph.invoke({}, _config("t-agree"), version="v2")
    assert result.interrupts == ()
    assert result.value["accord"]["status"] == "no_conflict"


def test_people_decide_through_an_interrupt_and_a_rerun_writes_nothing(
    accord: Accord, saver: BaseCheckpointSaver[Any]
) -> None:
    runs: list[str] = []
    graph = _graph(accord, saver, BRANCHES, runs)
    config = _config("t-people")
    first = graph.invoke({}, config, version="v2")
    (pending,) = first.interrupts
    item_id = pending.value["accord_item_id"]
    case_id = pending.value["case_id"]
    entries = accord.ledger.size()
    parked = accord.parking.parked()
    assert [t.item_id for t in parked] == [item_id]

    # premature: the item is still pending; the interrupt stays answerable, nothing written
    with pytest.raises(PydanticValidationError) as premature:
        graph.invoke(Command(resume={"item_id": item_id}), config, version="v2")
    assert is_invalid_resume(premature.value)
    assert accord.ledger.size() == entries
    assert accord.parking.parked() == parked

    accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="1450")
    decided_entries = accord.ledger.size()

    # the wrong item: refused by LangGraph, still answerable
    with pytest.raises(PydanticValidationError) as wrong:
        graph.invoke(Command(resume={"item_id": "apr:someone-else"}), config, version="v2")
    assert is_invalid_resume(wrong.value)

    # a forged outcome in the payload is ignored: the decision is read from Accord's store
    done = graph.invoke(
        Command(resume={"item_id": item_id, "choice": "1200"}), config, version="v2"
    )
    outcome = done.value["accord"]
    assert (outcome["case_id"], outcome["status"], outcome["answer"]) == (case_id, "settled", 1450)
    assert outcome["decided_by"] == "human:alice"
    assert outcome["item_id"] == item_id
    receipt = DecisionReceipt.model_validate(outcome["receipt"])  # the decision, provable
    assert (receipt.item_id, receipt.choice, receipt.decided_by) == (item_id, "1450", "human:alice")
    root = accord.trust_root()
    receipt.verify({root.kid: root.public_key})
    assert accord.ledger.size() == decided_entries  # the re-runs settled and parked nothing new
    with accord.db.read() as conn:
        assert conn.execute(select(func.count()).select_from(cases)).scalar_one() == 1
    assert accord.parking.parked() == []
    assert runs.count("join") >= 3
    assert graph.get_state(config).tasks == ()


def test_a_denial_reaches_the_graph_as_denied_without_an_answer(
    accord: Accord, saver: BaseCheckpointSaver[Any]
) -> None:
    graph = _graph(accord, saver, BRANCHES)
    config = _config("t-deny")
    (pending,) = graph.invoke({}, config, version="v2").interrupts
    item_id = pending.value["accord_item_id"]
    accord.decide(item_id, reviewer_key(accord, "human:alice"), deny=True, reason="recount")
    outcome = graph.invoke(Command(resume={"item_id": item_id}), config, version="v2").value[
        "accord"
    ]
    assert (outcome["status"], outcome["answer"], outcome["reason"]) == ("denied", None, "recount")


def test_without_a_checkpointer_the_node_refuses(accord: Accord) -> None:
    builder = StateGraph(State)
    join = settle_node(accord, subject="x")

    def typed_join(state: State) -> dict[str, Any]:
        return join(state)

    builder.add_node("join", typed_join)
    builder.add_edge(START, "join")
    graph = builder.compile()
    with pytest.raises(AccordError) as refused:
        graph.invoke({"positions": []})
    assert refused.value.code == "integrations.no_checkpointer"
    assert _refusal(lambda: pending_items(graph, _config("t"))) == "integrations.no_checkpointer"
    assert _refusal(lambda: resume_command(accord, graph, _config("t"))) == (
        "integrations.no_checkpointer"
    )


def _refusal(call: Any) -> str:
    with pytest.raises(AccordError) as refused:
        call()
    return refused.value.code


def test_the_client_helpers_resume_once_and_only_once_people_decided(
    accord: Accord, saver: BaseCheckpointSaver[Any]
) -> None:
    graph = _graph(accord, saver, BRANCHES)
    config = _config("t-helpers")
    assert pending_items(graph, config) == {}
    assert _refusal(lambda: resume_command(accord, graph, config)) == (
        "integrations.nothing_pending"
    )
    (pending,) = graph.invoke({}, config, version="v2").interrupts
    item_id = pending.value["accord_item_id"]
    assert pending_items(graph, config) == {pending.id: item_id}
    assert _refusal(lambda: resume_command(accord, graph, config)) == "integrations.not_decided"

    accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="1450")
    command = resume_command(accord, graph, config)
    assert command.resume == {"item_id": item_id}
    done = graph.invoke(command, config, version="v2")
    assert (done.value["accord"]["status"], done.value["accord"]["answer"]) == ("settled", 1450)
    assert pending_items(graph, config) == {}
    assert _refusal(lambda: resume_command(accord, graph, config)) == (
        "integrations.already_resumed"
    )


class TwoJoins(TypedDict, total=False):
    invoice: list[dict[str, Any]]
    refund: list[dict[str, Any]]
    invoice_outcome: dict[str, Any]
    refund_outcome: dict[str, Any]


def test_several_pending_interrupts_are_answered_by_id_as_each_is_decided(
    accord: Accord, saver: BaseCheckpointSaver[Any]
) -> None:
    tied = [
        {"agent": "agent:a", "output": 1200, "confidence": 0.8},
        {"agent": "agent:b", "output": 1450, "confidence": 0.8},
    ]
    builder = StateGraph(TwoJoins)
    for name in ("invoice", "refund"):
        join = settle_node(
            accord, subject=f"Total of {name}", positions_key=name, output_key=f"{name}_outcome"
        )

        def node(state: TwoJoins, join: Any = join) -> dict[str, Any]:
            return dict(join(state))

        builder.add_node(f"join_{name}", node)
        builder.add_edge(START, f"join_{name}")
        builder.add_edge(f"join_{name}", END)
    graph = builder.compile(checkpointer=saver)
    config = _config("t-two")
    graph.invoke({"invoice": tied, "refund": tied}, config, version="v2")
    waiting = pending_items(graph, config)
    assert len(waiting) == 2
    by_item = {item: interrupt_id for interrupt_id, item in waiting.items()}
    by_subject = {
        i.value["subject"]: i.value["accord_item_id"] for i in graph.get_state(config).interrupts
    }
    invoice_item, refund_item = by_subject["Total of invoice"], by_subject["Total of refund"]
    assert {invoice_item, refund_item} == set(by_item)

    accord.decide(refund_item, reviewer_key(accord, "human:alice"), choice="1200")
    command = resume_command(accord, graph, config)
    assert command.resume == {by_item[refund_item]: {"item_id": refund_item}}
    graph.invoke(command, config, version="v2")
    assert pending_items(graph, config) == {by_item[invoice_item]: invoice_item}

    accord.decide(invoice_item, reviewer_key(accord, "human:alice"), choice="1450")
    done = graph.invoke(resume_command(accord, graph, config), config, version="v2").value
    assert (done["invoice_outcome"]["answer"], done["refund_outcome"]["answer"]) == (1450, 1200)
    assert _refusal(lambda: resume_command(accord, graph, config)) == (
        "integrations.already_resumed"
    )


@pytest.fixture
def postgres_checkpoints(postgres_server_url: str) -> Iterator[str]:
    """A libpq connection string (PostgresSaver takes no ``+psycopg`` driver suffix) whose
    tables live in a private schema, dropped afterwards."""
    libpq = make_url(postgres_server_url).set(drivername="postgresql")
    schema = f"lg_{uuid.uuid4().hex[:16]}"
    plain = libpq.render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        scoped = libpq.update_query_dict({"options": f"-csearch_path={schema}"})
        yield scoped.render_as_string(hide_password=False)
    finally:
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def test_postgres_checkpoints_resume_in_another_process_without_writing_again(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock, postgres_checkpoints: str
) -> None:
    config_file = write_config(
        tmp_path,
        {
            "conflict_resolution": {"strategy": "human"},
            "approvals": {"principals": {"human:alice": []}},
        },
    )

    def opened() -> Accord:
        return Accord.open(
            config_file, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
        )

    config = _config("t-postgres")
    first, runs = opened(), list[str]()
    with PostgresSaver.from_conn_string(postgres_checkpoints) as saver:
        saver.setup()
        graph = _graph(first, saver, BRANCHES, runs)
        (pending,) = graph.invoke({}, config, version="v2").interrupts
        item_id = pending.value["accord_item_id"]
        entries = first.ledger.size()
        # a premature resume re-runs the node, which settles and parks nothing new
        with pytest.raises(PydanticValidationError):
            graph.invoke(Command(resume={"item_id": item_id}), config, version="v2")
        assert first.ledger.size() == entries
        first.decide(item_id, reviewer_key(first, "human:alice"), choice="1450")
        decided = first.ledger.size()
    first.close()

    second = opened()  # another process: its own Accord and its own checkpointer connection
    try:
        with PostgresSaver.from_conn_string(postgres_checkpoints) as saver:
            graph = _graph(second, saver, BRANCHES, runs)
            assert pending_items(graph, config) == {pending.id: item_id}
            done = graph.invoke(resume_command(second, graph, config), config, version="v2")
            outcome = done.value["accord"]
            assert (outcome["status"], outcome["answer"]) == ("settled", 1450)
            assert second.ledger.size() == decided
            with second.db.read() as conn:
                assert conn.execute(select(func.count()).select_from(cases)).scalar_one() == 1
            assert _refusal(lambda: resume_command(second, graph, config)) == (
                "integrations.already_resumed"
            )
        assert runs.count("join") >= 3
    finally:
        second.close()
