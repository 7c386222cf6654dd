"""The seed rules hold at every tier: critical cases without a source go to people,
cross-department cases to the lowest common manager, two positions at least, known agents."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from accord import Accord
from accord.cases import SettleRequest, SettleStatus
from accord.conflicts import Tier
from accord.errors import ConfigError, ValidationError
from accord.learning import WinRateTracker

from ._support import (
    contradiction,
    copy_example_org,
    critical_opt_in,
    reviewer_key,
    write_config,
)
from .conftest import OpenAccord, RunCli


def example_config(tmp_path: Path, policy: dict[str, Any] | None = None, **settle: Any) -> Path:
    body: dict[str, Any] = {"org": copy_example_org(tmp_path)}
    if policy is not None:
        body["conflict_resolution"] = policy
    if settle:
        body["settle"] = settle
    return write_config(tmp_path, body)


def labels(first: str, second: str) -> list[dict[str, Any]]:
    """Two labels at equal confidence: neither confidence nor a vote can decide."""
    return [
        {"agent": first, "output": "approve", "confidence": 0.8},
        {"agent": second, "output": "reject", "confidence": 0.8},
    ]


def totals(first: str, second: str) -> list[dict[str, Any]]:
    return [
        {"agent": first, "output": 1200, "confidence": 0.8},
        {"agent": second, "output": 1450, "confidence": 0.8},
    ]


# --- critical without source verification → people -------------------------------------


def test_a_critical_contradiction_without_a_source_goes_to_people_not_to_seniority(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(example_config(tmp_path, {"strategy": "authority"}))

    # agent:backend (senior, 0.6) against agent:qa (junior, 0.95), one branch (engineering)
    case = accord.settle(
        "Is migration 0042 safe?",
        contradiction("agent:backend", "agent:qa", yes_confidence=0.6, no_confidence=0.95),
    )

    assert case.status is SettleStatus.ESCALATED
    assert case.decision is None
    assert case.tier is Tier.HUMAN_APPEAL
    assert case.strategy == "human"
    assert case.approval_item_id is not None
    assert case.escalation is not None
    assert "critical conflict without source verification: people decide" in (
        case.escalation.reason
    )
    assert accord.approvals.get(case.approval_item_id).case_id == case.case_id


def test_a_conflict_type_that_opts_in_lets_its_strategy_settle_and_the_case_records_it(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(example_config(tmp_path, critical_opt_in({"strategy": "authority"})))

    case = accord.settle(
        "Is migration 0042 safe?",
        contradiction("agent:backend", "agent:qa", yes_confidence=0.6, no_confidence=0.95),
    )

    assert case.status is SettleStatus.SETTLED
    assert case.decision is not None
    assert case.decision.winner == "agent:backend"
    notes = [a.detail for a in case.attempts if a.rung == "policy"]
    assert len(notes) == 1
    assert (
        "conflict_resolution.conflict_types.direct_contradiction.critical_without_source"
        in notes[0]
    )
    resolved = [
        e.record for e in accord.ledger.entries() if e.event_type == "dispute_resolved"
    ]
    assert [a["rung"] for a in resolved[0]["attempts"]][-2:] == ["policy", "authority"]


@pytest.mark.parametrize(
    ("policy", "where"),
    [
        ({"critical_without_source": "strategy"}, "conflict_resolution.critical_without_source"),
        (
            {"departments": {"engineering": {"critical_without_source": "strategy"}}},
            "conflict_resolution.departments.engineering.critical_without_source",
        ),
    ],
)
def test_only_a_conflict_type_may_opt_in_to_settling_critical_conflicts(
    tmp_path: Path, open_accord: OpenAccord, policy: dict[str, Any], where: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        open_accord(example_config(tmp_path, policy))

    assert where in caught.value.message
    assert "only a conflict type may opt in" in caught.value.message


# --- cross-department → the lowest common manager, at tier 1 too --------------------------


@pytest.mark.parametrize("positions", [labels, totals], ids=["labels", "numbers"])
def test_seniority_does_not_decide_across_departments_at_tier_one(
    tmp_path: Path, open_accord: OpenAccord, positions: Any
) -> None:
    accord = open_accord(example_config(tmp_path))

    # agent:backend (senior engineer) against agent:billing-intern (junior, finance)
    case = accord.settle("Ship the run?", positions("agent:backend", "agent:billing-intern"))

    assert case.status is SettleStatus.ESCALATED
    assert case.decision is None
    tier_one = next(a for a in case.attempts if a.rung == "authority")
    assert not tier_one.decided
    assert "cross-department conflict (backend, billing)" in tier_one.detail
    assert "their lowest common manager human:ceo decides" in tier_one.detail
    assert case.approval_item_id is not None  # the manager is a person: the queue


def test_four_agents_in_three_departments_against_one_are_settled_by_the_vote_at_tier_one(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(example_config(tmp_path))
    four = ["agent:backend", "agent:backend-lead", "agent:frontend", "agent:qa"]
    positions = [{"agent": a, "output": 1200, "confidence": 0.8} for a in four]
    positions.append({"agent": "agent:billing", "output": 1450, "confidence": 0.8})

    # backend, frontend and qa (engineering) against billing (finance): their lowest common
    # manager human:ceo is a person, whom tier 1 cannot ask, so the vote comes next (seed 002)
    case = accord.settle("Total?", positions)

    assert case.status is SettleStatus.SETTLED
    assert case.tier is Tier.DIRECT_NEGOTIATION
    assert case.approval_item_id is None
    assert case.decision is not None
    assert case.decision.rung == "vote"
    assert case.decision.answer == 1200
    assert [(a.rung, a.decided) for a in case.attempts] == [
        ("source_verification", False),
        ("confidence", False),
        ("authority", False),
        ("vote", True),
    ]
    authority = case.attempts[2].detail
    assert "cross-department conflict (backend, billing, frontend, qa)" in authority
    assert "the lowest common manager human:ceo is a person, not asked at tier 1" in authority
    resolved = next(
        e.record for e in accord.ledger.entries() if e.event_type == "dispute_resolved"
    )
    assert resolved["decided_by"] == "vote"
    assert "authority could not decide" in json.dumps(resolved)


def test_a_tier_one_decision_names_the_rung_that_decided_and_the_shared_department(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(example_config(tmp_path))

    case = accord.settle("Total?", totals("agent:backend", "agent:backend-lead"))

    assert case.status is SettleStatus.SETTLED
    assert case.tier is Tier.DIRECT_NEGOTIATION
    assert case.department == "backend"
    assert case.dissent[0].decided_by == "authority"
    assert case.dissent[0].department == "backend"
    resolved = next(
        e.record for e in accord.ledger.entries() if e.event_type == "dispute_resolved"
    )
    assert resolved["decided_by"] == "authority"
    assert resolved["department"] == "backend"
    assert resolved["common_manager"] is None


def test_a_tier_one_decision_across_departments_has_no_department(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(example_config(tmp_path))

    case = accord.settle(
        "Total?",
        [
            {"agent": "agent:backend", "output": 1200, "confidence": 0.95},
            {"agent": "agent:billing", "output": 1450, "confidence": 0.6},
        ],
    )

    assert case.decision is not None
    assert case.decision.rung == "confidence"
    assert case.department is None
    assert case.dissent[0].decided_by == "confidence"
    resolved = next(
        e.record for e in accord.ledger.entries() if e.event_type == "dispute_resolved"
    )
    assert (resolved["department"], resolved["common_manager"]) == (None, "human:ceo")


# --- at least two positions ---------------------------------------------------------------


def test_a_single_position_is_refused_by_settle_and_settle_many_and_nothing_is_signed(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(example_config(tmp_path))
    one = [{"agent": "agent:backend", "output": 1200}]

    with pytest.raises(ValidationError) as single:
        accord.settle("Total?", one)
    with pytest.raises(ValidationError) as many:
        accord.settle_many(
            [
                SettleRequest("Total?", totals("agent:qa", "agent:backend")),
                SettleRequest("Total?", one),
            ]
        )

    assert single.value.code == many.value.code == "settle.too_few_positions"
    assert "too few answers: 1 position" in single.value.message
    assert single.value.context["field"] == "positions"
    assert many.value.context["request"] == 1  # and the first request was not written
    assert accord.ledger.size() == 0


def test_the_fan_out_reports_too_few_answers_and_signs_nothing(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(example_config(tmp_path))

    async def answers(value: int) -> int:
        return value

    async def fails() -> int:
        raise RuntimeError("model down")

    with pytest.raises(ValidationError) as caught:
        asyncio.run(
            accord.settle_gather("Total?", {"agent:backend": answers(1200), "agent:qa": fails()})
        )

    assert caught.value.code == "settle.too_few_answers"
    assert "too few answers: 1 of 2 agents" in caught.value.message
    assert accord.ledger.size() == 0


def test_the_cli_refuses_a_file_with_one_position(
    tmp_path: Path, cli: RunCli, database_url: str
) -> None:
    example_config(tmp_path)
    Path("case.json").write_text(
        json.dumps({"subject": "Total?", "positions": [{"agent": "agent:qa", "output": 1}]}),
        encoding="utf-8",
    )

    result = cli(
        "settle", "case.json", "--config", "accord.yaml", "--db", database_url, "--keys", "keys"
    )

    assert result.exit_code == 2
    # the file's schema (``accord schema settle``) already asks for two positions
    assert "case.json: positions: List should have at least 2 items" in result.output
    assert "Traceback" not in result.output


# --- agents must be in the org chart --------------------------------------------------------


def test_an_agent_missing_from_the_org_chart_is_refused_by_name(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(example_config(tmp_path))

    with pytest.raises(ValidationError) as caught:
        accord.settle("Total?", totals("agent:backend", "agent:bakend"))

    assert caught.value.code == "settle.unknown_agent"
    assert "agent 'agent:bakend' is not in the org chart" in caught.value.message
    assert caught.value.context["field"] == "positions[1].agent"
    assert caught.value.context["agent"] == "agent:bakend"
    assert accord.ledger.size() == 0


def test_allow_unknown_agents_lets_agents_outside_the_org_chart_settle(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(example_config(tmp_path, allow_unknown_agents=True))

    case = accord.settle("Total?", totals("vendor:alpha", "vendor:beta"))

    assert case.status is SettleStatus.ESCALATED  # authority cannot rank them: people decide


def test_without_an_org_chart_any_agent_may_settle(tmp_path: Path, open_accord: OpenAccord) -> None:
    accord: Accord = open_accord(write_config(tmp_path, {}))

    case = accord.settle(
        "Total?",
        [
            {"agent": "vendor:alpha", "output": 1200, "confidence": 0.9},
            {"agent": "vendor:beta", "output": 1450, "confidence": 0.5},
        ],
    )

    assert case.status is SettleStatus.SETTLED


# --- win rates count every winner ------------------------------------------------------------


def test_all_three_winners_of_a_three_against_two_vote_count_in_win_rates(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(write_config(tmp_path, {}))
    votes = ["approve", "approve", "approve", "reject", "reject"]

    case = accord.settle(
        "Ship?",
        [
            {"agent": f"agent:{n}", "output": vote, "confidence": 0.8}
            for n, vote in enumerate(votes)
        ],
    )
    tracker = WinRateTracker.from_outcomes(accord.outcomes())

    assert case.decision is not None
    assert case.decision.rung == "vote"
    assert [tracker.wins(f"agent:{n}") for n in range(5)] == [1, 1, 1, 0, 0]
    assert [tracker.cases(f"agent:{n}") for n in range(5)] == [1] * 5


# --- a denial is a final status ----------------------------------------------------------------


def test_a_denied_case_is_final_and_found_by_status_denied(
    tmp_path: Path, open_accord: OpenAccord, cli: RunCli, database_url: str
) -> None:
    config = write_config(
        tmp_path,
        {
            "conflict_resolution": {"strategy": "human"},
            "approvals": {"principals": {"human:alice": ["approver"]}},
        },
    )
    accord = open_accord(config)
    case = accord.settle("Total?", totals("agent:a", "agent:b"))

    accord.decide(
        str(case.approval_item_id), reviewer_key(accord, "human:alice"), deny=True, reason="re-run"
    )

    denied = accord.cases.get(case.case_id)
    assert denied.status is SettleStatus.DENIED
    assert [r["case_id"] for r in accord.cases.find(status="denied")] == [case.case_id]
    assert accord.cases.find(status="escalated") == []
    assert accord.verify(workers=1).entries == accord.ledger.size()  # the case audit agrees
    listed = cli(
        "cases", "--status", "denied", "--json", "--db", database_url, "--keys", "keys",
        "--config", "accord.yaml",
    )
    assert listed.exit_code == 0, listed.output
    assert [r["case_id"] for r in json.loads(listed.stdout)] == [case.case_id]


# --- text options of any length reach people ------------------------------------------------


def test_a_free_text_disagreement_longer_than_an_option_reaches_people_in_full(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(
        write_config(
            tmp_path,
            {
                "conflict_resolution": {"strategy": "human"},
                "approvals": {"principals": {"human:alice": []}},
            },
        )
    )
    keep = "Keep the retry loop: " + "the upstream API drops one call in fifty. " * 20
    drop = "Drop the retry loop: " + "retries doubled the load during the outage. " * 20

    case = accord.settle(
        "Should the client retry?",
        [
            {"agent": "agent:a", "output": keep, "confidence": 0.8},
            {"agent": "agent:b", "output": drop, "confidence": 0.8},
        ],
    )

    assert case.approval_item_id is not None
    item = accord.approvals.get(case.approval_item_id)
    assert len(keep) > 256
    assert item.option_texts == (keep, drop)
    assert all(len(option) <= 256 for option in item.options)
    assert item.options[0].startswith("option 1: Keep the retry loop")
    assert "[sha256:" in item.options[0]
    accord.decide(
        case.approval_item_id, reviewer_key(accord, "human:alice"), choice=item.options[1]
    )
    decided = accord.cases.get(case.case_id)
    assert decided.decision is not None
    assert decided.decision.answer == drop
    assert decided.decision.winner == "agent:b"
