"""Dissent records are queryable by agent, department, kind, strategy, time and text; they
export as JSONL and summarize who dissents and which decisions were later overturned."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from accord import Accord
from accord.clock import FrozenClock


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    instance = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    yield instance
    instance.close()


def settle_three(accord: Accord, clock: FrozenClock) -> None:
    accord.settle(
        "Total of invoice 4411",
        [
            {"agent": "agent:billing", "output": 1200, "confidence": 0.9},
            {
                "agent": "agent:audit",
                "output": 1450,
                "confidence": 0.6,
                "reasoning": "shipping fee",
            },
        ],
        task_type="invoicing",
    )
    clock.advance(timedelta(hours=1))
    accord.settle(
        "ticket 7",
        [
            {"agent": "agent:a", "output": "bug"},
            {"agent": "agent:b", "output": "bug"},
            {"agent": "agent:audit", "output": "feature"},
        ],
        task_type="triage",
    )
    clock.advance(timedelta(hours=1))
    # the same invoice again, and this time the auditor's total wins
    accord.settle(
        "Total of invoice 4411",
        [
            {"agent": "agent:billing", "output": 1200, "confidence": 0.5},
            {"agent": "agent:audit", "output": 1450, "confidence": 0.95},
        ],
        task_type="invoicing",
    )


def test_dissent_is_queryable_by_every_filter(accord: Accord, frozen_clock: FrozenClock) -> None:
    start = frozen_clock.now()
    settle_three(accord, frozen_clock)
    assert [r.agent_id for r in accord.dissent.query()] == [
        "agent:audit",
        "agent:audit",
        "agent:billing",
    ]
    assert len(accord.dissent.query(agent="agent:audit")) == 2
    assert [r.strategy for r in accord.dissent.query(strategy="vote")] == ["vote"]
    assert len(accord.dissent.query(kind="numerical_inconsistency")) == 2
    assert len(accord.dissent.query(since=start + timedelta(minutes=30))) == 2
    assert len(accord.dissent.query(until=start + timedelta(minutes=30))) == 1
    assert [r.agent_id for r in accord.dissent.query(text="shipping fee")] == ["agent:audit"]
    assert accord.dissent.query(department="finance") == []
    assert len(accord.dissent.query(limit=1)) == 1
    first = accord.dissent.query()[0]
    assert first.subject == "Total of invoice 4411"
    assert {p.agent for p in first.positions} == {"agent:billing", "agent:audit"}
    assert first.winners == ("agent:billing",)


def test_dissent_exports_as_json_lines(accord: Accord, frozen_clock: FrozenClock) -> None:
    settle_three(accord, frozen_clock)
    out = io.StringIO()
    assert accord.dissent.export_jsonl(out, agent="agent:audit") == 2
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert {line["agent_id"] for line in lines} == {"agent:audit"}


def test_the_summary_names_who_dissents_most_and_what_was_overturned(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    settle_three(accord, frozen_clock)
    summary = accord.dissent.summary()
    assert summary.total == 3
    assert next(iter(summary.by_agent)) == "agent:audit"
    assert [(o.agent_id, o.later_case_id != o.case_id) for o in summary.overturned] == [
        ("agent:audit", True)
    ]
