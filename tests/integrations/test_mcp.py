"""Accord's MCP server on the real ``mcp`` SDK, offline: in-process and over stdio from a
subprocess (``accord mcp --as AGENT``). A retried settle with the same key is one case; the
caller is only ``--as``; ``wait_for_decision`` answers ``pending`` when its wait runs out."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from sqlalchemy import func, select

from accord.app import Accord
from accord.audit import DecisionReceipt
from accord.clock import FrozenClock
from accord.integrations.mcp import build_server
from accord.precedents import BundleDraft
from accord.store.tables import cases

from ..disputes.conftest import evidence
from ..e2e._support import numbers_tied, reviewer_key, write_config
from ..precedents.conftest import draft_data

SUBJECT = "Total of invoice 4411"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return write_config(
        tmp_path,
        {
            "conflict_resolution": {"strategy": "human"},
            "approvals": {"principals": {"human:alice": []}},
        },
    )


@pytest.fixture
def accord(
    config: Path, tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> Iterator[Accord]:
    opened = Accord.open(
        config, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
    )
    yield opened
    opened.close()


def _count_cases(accord: Accord) -> int:
    with accord.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(cases)).scalar_one())


async def _no_sleep(_: float) -> None:
    return None


def _settle_args(key: str | None = "retry-1") -> dict[str, Any]:
    return {
        "subject": SUBJECT,
        "positions": numbers_tied("agent:a", "agent:b"),
        "idempotency_key": key,
    }


def test_tools_over_an_in_process_client(accord: Accord) -> None:
    server = build_server(accord, agent="agent:a", sleep=_no_sleep, poll_interval=1.0)

    async def session() -> None:
        async with Client(server) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert {"settle", "case_status", "park", "wait_for_decision", "receipt"} <= names
            first = await client.call_tool("settle", _settle_args())
            assert not first.is_error, first
            case = first.structured_content
            assert case is not None
            assert case["status"] == "escalated"
            again = await client.call_tool("settle", _settle_args())
            assert again.structured_content == case
            assert _count_cases(accord) == 1
            other = {**_settle_args(), "subject": "Another subject"}
            refused = await client.call_tool("settle", other)
            assert refused.is_error
            assert "idempotency.conflict" in json.dumps(refused.model_dump(mode="json"))

            parked = await client.call_tool(
                "park", {"case_id": case["case_id"], "context": {"step": 2}, "idempotency_key": "p"}
            )
            assert parked.structured_content is not None
            assert parked.structured_content["agent_id"] == "agent:a"  # only --as names the caller
            item_id = case["approval_item_id"]
            waited = await client.call_tool(
                "wait_for_decision", {"item_id": item_id, "timeout_s": 3}
            )
            assert waited.structured_content == {
                "item_id": item_id,
                "status": "pending",
                "decision": None,
                "receipt": None,
            }
            early = await client.call_tool("receipt", {"item_id": item_id})
            assert early.is_error
            assert "approvals.pending" in json.dumps(early.model_dump(mode="json"))

            accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="1450")
            decided = await client.call_tool(
                "wait_for_decision", {"item_id": item_id, "timeout_s": 0}
            )
            assert decided.structured_content is not None
            assert decided.structured_content["status"] == "approved"
            assert decided.structured_content["decision"]["choice"] == "1450"
            root = accord.trust_root()
            keys = {root.kid: root.public_key}
            DecisionReceipt.model_validate(decided.structured_content["receipt"]).verify(keys)
            asked = await client.call_tool("receipt", {"item_id": item_id})
            assert asked.structured_content == decided.structured_content["receipt"]
            read = await client.read_resource(f"accord://receipts/{item_id}")
            text = read.contents[0].text  # type: ignore[union-attr]
            assert DecisionReceipt.model_validate_json(text).verify(keys) is not None
            status = await client.call_tool("case_status", {"case_id": case["case_id"]})
            assert status.structured_content is not None
            assert (status.structured_content["status"], status.structured_content["answer"]) == (
                "settled",
                1450,
            )
            resource = await client.read_resource(f"accord://cases/{case['case_id']}")
            assert json.loads(resource.contents[0].text)["status"] == "settled"  # type: ignore[union-attr]

    asyncio.run(session())


def test_a_long_wait_is_refused_as_a_tool_error(accord: Accord) -> None:
    server = build_server(accord, agent="agent:a", sleep=_no_sleep)

    async def session() -> None:
        async with Client(server) as client:
            answer = await client.call_tool("wait_for_decision", {"item_id": "x", "timeout_s": 600})
            assert answer.is_error

    asyncio.run(session())


def test_settle_over_stdio_from_a_subprocess_retries_into_one_case(
    accord: Accord, config: Path, tmp_path: Path, database_url: str
) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-c",
            "from accord.cli.main import app; app()",
            "mcp",
            "--as",
            "agent:a",
            "--config",
            str(config),
            "--db",
            database_url,
            "--keys",
            str(tmp_path / "keys"),
        ],
        env=env,
    )

    async def session() -> None:
        async with Client(params) as client:
            first = await client.call_tool("settle", _settle_args("stdio-1"))
            again = await client.call_tool("settle", _settle_args("stdio-1"))
            assert not first.is_error, first
            assert first.structured_content == again.structured_content

    asyncio.run(session())
    assert _count_cases(accord) == 1


def _refused(answer: Any) -> str:
    """The ``[code]`` a refused call names."""
    assert answer.is_error, answer
    return str(answer.content[0].text)


def test_no_tool_takes_an_agent_id_for_the_caller(accord: Accord) -> None:
    server = build_server(accord, agent="agent:a")

    async def session() -> None:
        async with Client(server) as client:
            tools = (await client.list_tools()).tools
            names = {tool.name for tool in tools}
            assert {"submit_position", "open_dispute", "submit_evidence", "search_precedents"} <= (
                names
            )
            for tool in tools:
                given = set(tool.input_schema.get("properties", {}))
                assert not given & {"agent", "agent_id", "by", "complainant", "caller"}, tool.name

    asyncio.run(session())


def test_an_agent_submits_only_its_own_position_to_a_case_naming_it(accord: Accord) -> None:
    collecting = accord.collecting.open(
        SUBJECT, ["agent:a", "agent:b"], within=3600, opened_by="agent:orchestrator"
    )
    as_a = build_server(accord, agent="agent:a")
    as_b = build_server(accord, agent="agent:b")
    as_c = build_server(accord, agent="agent:c")
    args = {"collecting_id": collecting.collecting_id, "output": 1200, "confidence": 0.8}

    async def session() -> None:
        async with Client(as_a) as a, Client(as_b) as b, Client(as_c) as c:
            first = await a.call_tool("submit_position", args)
            assert first.structured_content is not None, first
            assert first.structured_content["submitted"] == ["agent:a"]
            assert "[collecting.already_submitted]" in _refused(
                await a.call_tool("submit_position", args)
            )
            assert "[collecting.not_a_party]" in _refused(
                await c.call_tool("submit_position", args)
            )
            last = await b.call_tool("submit_position", {**args, "output": 1450})
            assert last.structured_content is not None
            assert last.structured_content["case_id"] is not None  # the last one settles it

    asyncio.run(session())
    settled = accord.cases.get(accord.collecting.get(collecting.collecting_id).case_id or "")
    assert {p.agent for p in settled.positions} == {"agent:a", "agent:b"}


def test_a_dispute_is_filed_by_the_caller_and_evidence_comes_from_its_parties(
    accord: Accord,
) -> None:
    as_a = build_server(accord, agent="agent:a")
    as_b = build_server(accord, agent="agent:b")
    as_c = build_server(accord, agent="agent:c")

    async def session() -> None:
        async with Client(as_a) as a, Client(as_b) as b, Client(as_c) as c:
            opened = await a.call_tool(
                "open_dispute",
                {
                    "dispute_type": "resource_conflict",
                    "severity": "medium",
                    "respondents": ["agent:b"],
                    "subject": "both booked the GPU for tonight",
                    "evidence": [evidence(1)],
                },
            )
            assert opened.structured_content is not None, opened
            dispute_id = opened.structured_content["record"]["dispute_id"]
            added = await b.call_tool(
                "submit_evidence", {"dispute_id": dispute_id, "evidence": [evidence(2)]}
            )
            assert not added.is_error, added
            entries = accord.ledger.size()
            outsider = await c.call_tool(
                "submit_evidence", {"dispute_id": dispute_id, "evidence": [evidence(3)]}
            )
            assert "[disputes.not_a_party]" in _refused(outsider)
            bad = await a.call_tool(
                "open_dispute",
                {
                    "dispute_type": "no_such_type",
                    "severity": "medium",
                    "respondents": ["agent:b"],
                    "subject": "x",
                },
            )
            assert "dispute_type" in _refused(bad)
            assert accord.ledger.size() == entries  # refusals write nothing

    asyncio.run(session())
    (stored,) = accord.disputes.list().items
    record = accord.disputes.show(stored.dispute_id).record
    assert record.complainant.agent_id == "agent:a"  # from --as, never from the call
    assert [e.submitted_by for e in record.evidence] == ["agent:a", "agent:b"]


def test_precedents_and_approval_items_are_readable(accord: Accord) -> None:
    bundle = accord.precedents.add(BundleDraft.model_validate(draft_data()))
    case = accord.settle(SUBJECT, numbers_tied("agent:a", "agent:b"))
    server = build_server(accord, agent="agent:a")

    async def session() -> None:
        async with Client(server) as client:
            found = await client.call_tool(
                "search_precedents",
                {"dispute_type": "resource_conflict", "conditions": ["shared_gpu"]},
            )
            assert found.structured_content is not None, found
            (item,) = found.structured_content["items"]
            assert item["jurisprudence_id"] == bundle.jurisprudence_id
            none = await client.call_tool(
                "search_precedents",
                {"dispute_type": "resource_conflict", "conditions": ["another_condition"]},
            )
            assert none.structured_content == {"items": []}
            assert "[precedents.invalid]" in _refused(
                await client.call_tool("search_precedents", {"dispute_type": "no_such_type"})
            )
            read = await client.read_resource(f"accord://precedents/{bundle.jurisprudence_id}")
            text = read.contents[0].text  # type: ignore[union-attr]
            assert json.loads(text)["jurisprudence_id"] == bundle.jurisprudence_id
            approval = await client.read_resource(f"accord://approvals/{case.approval_item_id}")
            shown = json.loads(approval.contents[0].text)  # type: ignore[union-attr]
            assert (shown["item_id"], shown["status"]) == (case.approval_item_id, "pending")

    asyncio.run(session())
