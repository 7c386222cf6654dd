"""Strategy 2, debate, chosen in accord.yaml: capped arguments, a neutral judge asked twice."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from accord import Case, SettleStatus
from accord.cases import CaseStatus
from accord.conflicts import Tier
from accord.errors import AccordError
from accord.llm import ScriptedModel
from accord.llm.tokens import estimate_tokens

from ._support import (
    contradiction,
    copy_example_org,
    critical_opt_in,
    expected_usage,
    first_group_wins,
    ledger_events,
    position_biased_judge,
    reviewer_key,
    scripted_model,
    second_group_wins,
    write_config,
)
from .conftest import OpenAccord

ARGUMENTS = ("The release passed all 412 tests.", "The smoke test on staging failed twice.")


def debate_config(
    tmp_path: Path, *script: str, allow_unknown_agents: bool = False, **debate: object
) -> Path:
    policy: dict[str, object] = {"strategy": "debate"}
    if debate:
        policy["debate"] = dict(debate)
    return write_config(
        tmp_path,
        {
            "org": copy_example_org(tmp_path),
            "settle": {"allow_unknown_agents": allow_unknown_agents},
            "conflict_resolution": critical_opt_in(policy),
            "model": scripted_model(*script),
            "approvals": {"principals": {"human:ceo": []}},
        },
    )


def test_a_consistent_judge_settles_the_case_with_arguments_and_reasoning_in_the_dissent(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    script = [*ARGUMENTS, *first_group_wins(0.85, "412 passing tests outweigh a flaky smoke test")]
    accord = open_accord(debate_config(tmp_path, *script))

    case = accord.settle("Is release 3.2 ready?", contradiction("agent:frontend", "agent:qa"))

    assert case.status is SettleStatus.SETTLED
    assert case.dcp_status is CaseStatus.RESOLVED
    assert case.tier is Tier.CONTEXTUAL_ARBITRATION
    assert case.strategy == "debate"
    assert case.decision is not None
    assert (case.decision.winner, case.decision.answer) == ("agent:frontend", True)
    assert case.decision.rung == "debate"
    assert case.decision.confidence == 0.85
    [dissent] = accord.dissent.query(strategy="debate")
    assert dissent.case_id == case.case_id
    assert dissent.agent_id == "agent:qa"
    assert dissent.decided_by == "agent:eng-director"  # the parties' lowest common manager
    assert dissent.arguments == {"agent:frontend": ARGUMENTS[0], "agent:qa": ARGUMENTS[1]}
    assert dissent.reasoning == "412 passing tests outweigh a flaky smoke test"
    assert dissent == case.dissent[0]


def test_the_case_carries_the_exact_tokens_and_calls_the_debate_spent(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    script = [*ARGUMENTS, *second_group_wins()]
    accord = open_accord(debate_config(tmp_path, *script, max_tokens_per_argument=40))

    case = accord.settle("Is release 3.2 ready?", contradiction("agent:frontend", "agent:qa"))

    tokens_in, calls = expected_usage(accord.model)
    assert case.decision is not None
    assert case.decision.winner == "agent:qa"
    assert case.model_calls == calls == 4
    assert case.tokens_in == tokens_in > 0
    assert case.tokens_out == sum(estimate_tokens(answer) for answer in script) > 0
    model = accord.model
    assert isinstance(model, ScriptedModel)
    assert [r.purpose for r in model.requests] == ["argument", "argument", "judge", "judge"]
    assert [r.max_tokens for r in model.requests[:2]] == [40, 40]
    stored = accord.cases.get(case.case_id)
    assert (stored.tokens_in, stored.tokens_out, stored.model_calls) == (
        case.tokens_in,
        case.tokens_out,
        4,
    )
    resolved = [e for e in accord.ledger.entries() if e.event_type == "dispute_resolved"]
    assert resolved[0].record["tokens"] == {
        "input": case.tokens_in,
        "output": case.tokens_out,
        "model_calls": 4,
    }
    assert ledger_events(accord) == {
        "dispute_opened": 1,
        "dispute_escalated": 1,
        "dispute_resolved": 1,
    }


def test_a_judge_inconsistent_under_the_swap_twice_sends_the_case_to_people(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    script = [*ARGUMENTS, *position_biased_judge(), *position_biased_judge()]
    accord = open_accord(debate_config(tmp_path, *script))

    case = accord.settle("Is release 3.2 ready?", contradiction("agent:frontend", "agent:qa"))

    assert case.status is SettleStatus.ESCALATED
    assert case.dcp_status is CaseStatus.APPEALING
    assert case.tier is Tier.HUMAN_APPEAL
    assert case.decision is None
    assert case.dissent == ()
    assert case.model_calls == 6  # two arguments, then two rounds of two judge calls
    assert case.tokens_in == expected_usage(accord.model)[0]
    assert case.escalation is not None
    assert "still tied after 2 round(s): the judge is inconsistent" in case.escalation.reason
    [item] = accord.approvals.list(case_id=case.case_id)
    assert item.item_id == case.approval_item_id
    assert item.options == ("true", "false")
    assert "still tied after 2 round(s)" in item.analysis  # people see what was tried
    assert ledger_events(accord) == {
        "dispute_opened": 1,
        "dispute_escalated": 2,
        "approval_requested": 1,
    }


def test_a_judge_inconsistent_once_is_asked_again_and_its_second_round_decides(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    script = [*ARGUMENTS, *position_biased_judge(), *first_group_wins()]
    accord = open_accord(debate_config(tmp_path, *script))

    case = accord.settle("Is release 3.2 ready?", contradiction("agent:frontend", "agent:qa"))

    assert case.status is SettleStatus.SETTLED
    assert case.decision is not None
    assert case.decision.winner == "agent:frontend"
    assert case.model_calls == 6
    assert "in round 2" in case.attempts[-1].detail
    ledger_events(accord)


def test_a_named_arbitrator_judges_parties_outside_the_org_chart(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    script = [*ARGUMENTS, *first_group_wins()]
    accord = open_accord(
        debate_config(tmp_path, *script, allow_unknown_agents=True, judge="agent:arbiter")
    )

    case = accord.settle("Ready?", contradiction("vendor:alpha", "vendor:beta"))

    assert case.decision is not None
    assert case.decision.winner == "vendor:alpha"
    assert case.dissent[0].decided_by == "agent:arbiter"
    ledger_events(accord)


def test_a_human_judge_gets_the_arguments_through_the_approval_queue(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(debate_config(tmp_path, *ARGUMENTS))

    # research vs audit: the lowest common manager, who would judge, is human:ceo
    case = accord.settle("Is the study sound?", contradiction("agent:researcher", "agent:audit"))

    assert case.tier is Tier.HUMAN_APPEAL
    assert case.model_calls == 2  # the arguments, no model judge
    item = accord.approvals.get(str(case.approval_item_id))
    assert "the judge human:ceo is a human" in item.analysis
    assert f"agent:researcher: {ARGUMENTS[0]}" in item.analysis
    accord.decide(item.item_id, reviewer_key(accord, "human:ceo"), choice="false")
    assert accord.cases.get(case.case_id).dissent[0].agent_id == "agent:researcher"
    ledger_events(accord)


def test_inside_an_event_loop_the_debate_runs_through_settle_async(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(debate_config(tmp_path, *ARGUMENTS, *first_group_wins()))
    positions = contradiction("agent:frontend", "agent:qa")

    async def agent_loop() -> Case:
        with pytest.raises(AccordError) as sync_inside_loop:
            accord.settle("Release?", positions)
        assert sync_inside_loop.value.code == "settle.use_async"
        return await accord.settle_async("Release?", positions)

    case = asyncio.run(agent_loop())

    assert case.decision is not None
    assert case.decision.winner == "agent:frontend"
    assert case.model_calls == 4
    assert accord.cases.total() == 1  # the refused sync call recorded nothing
    ledger_events(accord)
