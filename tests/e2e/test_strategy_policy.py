"""`conflict_resolution` in accord.yaml: which strategy settles which case, checked at open."""

from __future__ import annotations

from pathlib import Path

import pytest

from accord import Accord, SettleStatus
from accord.conflicts import Tier
from accord.errors import ConfigError

from ._support import (
    FakeDecisionPort,
    contradiction,
    copy_example_org,
    critical_opt_in,
    first_group_wins,
    ledger_events,
    numbers_tied,
    scripted_model,
    write_config,
    write_org_with_agent_coo,
)
from .conftest import OpenAccord

BUILT_IN = "authority, debate, human, hybrid"


def test_conflict_type_beats_department_beats_company_in_one_yaml(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    config = write_config(
        tmp_path,
        {
            "org": copy_example_org(tmp_path),
            "settle": {"allow_unknown_agents": True},
            "conflict_resolution": {
                "strategy": "debate",
                "debate": {"judge": "agent:arbiter"},
                "departments": {
                    "executive": {
                        "strategy": "authority",
                        "authority": {"cross_department": "seniority"},
                    }
                },
                "conflict_types": {
                    "numerical_inconsistency": {"strategy": "human"},
                    "direct_contradiction": {"critical_without_source": "strategy"},
                },
            },
            "model": scripted_model("Argument A.", "Argument B.", *first_group_wins()),
        },
    )
    accord = open_accord(config)

    # frontend (engineering) vs billing (finance): their common manager is in `executive`
    by_department = accord.settle("Pay today?", contradiction("agent:frontend", "agent:billing"))
    # the same department, but a numerical inconsistency: the conflict type decides
    by_type = accord.settle("Total?", numbers_tied("agent:frontend", "agent:legacy-reports"))
    # parties outside the org chart: no department, so the company default applies
    by_company = accord.settle("Ship?", contradiction("vendor:alpha", "vendor:beta"))

    assert (by_department.department, by_department.strategy) == ("executive", "authority")
    assert by_department.decision is not None
    assert by_department.decision.winner == "agent:billing"  # senior beats mid, by seniority
    assert by_department.model_calls == 0

    assert (by_type.department, by_type.strategy) == ("executive", "human")
    assert by_type.status is SettleStatus.ESCALATED
    assert by_type.tier is Tier.HUMAN_APPEAL
    assert accord.approvals.get(str(by_type.approval_item_id)).options == ("1200", "1450")

    assert (by_company.department, by_company.strategy) == (None, "debate")
    assert by_company.decision is not None
    assert by_company.decision.winner == "vendor:alpha"
    assert by_company.dissent[0].decided_by == "agent:arbiter"
    assert by_company.model_calls == 4

    assert ledger_events(accord) == {
        "dispute_opened": 3,
        "dispute_escalated": 4,
        "dispute_resolved": 2,
        "approval_requested": 1,
    }


def test_a_department_changes_one_setting_and_inherits_the_rest(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    config = write_config(
        tmp_path,
        {
            "org": write_org_with_agent_coo(tmp_path),
            "conflict_resolution": critical_opt_in(
                {
                    "strategy": "authority",
                    "authority": {"cross_department": "seniority", "same_level": "escalate"},
                    "departments": {
                        "executive": {"authority": {"same_level": "manager_decides"}}
                    },
                }
            ),
        },
    )
    port = FakeDecisionPort({"agent:coo": "false"})
    accord = open_accord(config, decision_port=port)

    # both mid, across branches: seniority (company) ties, then the manager decides (department)
    case = accord.settle("Pay?", contradiction("agent:frontend", "agent:legacy-reports"))

    assert [decider for decider, _, _ in port.asked] == ["agent:coo"]
    assert case.decision is not None
    assert case.decision.winner == "agent:legacy-reports"
    assert "equal seniority" in case.dissent[0].reasoning
    ledger_events(accord)


@pytest.mark.parametrize(
    ("policy", "key_path", "rule"),
    [
        (
            {"strategy": "debate", "departments": {"engineering": {"strategy": "arbitrate"}}},
            "conflict_resolution.departments.engineering.strategy",
            f"unknown strategy 'arbitrate'; valid: {BUILT_IN}",
        ),
        (
            {"conflict_types": {"logical_conflict": {"strategy": "vote"}}},
            "conflict_resolution.conflict_types.logical_conflict.strategy",
            f"unknown strategy 'vote'; valid: {BUILT_IN}",
        ),
        (
            {"strategy": "coin_flip"},
            "conflict_resolution.strategy",
            f"unknown strategy 'coin_flip'; valid: {BUILT_IN}",
        ),
        (
            {"strategy": "debate", "debtae": {"judge": "ceo"}},
            "conflict_resolution.debtae",
            f"unknown key (not a strategy); valid strategies: {BUILT_IN}",
        ),
    ],
)
def test_an_unknown_strategy_fails_at_open_naming_the_key_path_and_the_valid_names(
    tmp_path: Path, database_url: str, policy: dict[str, object], key_path: str, rule: str
) -> None:
    config = write_config(tmp_path, {"conflict_resolution": policy})

    with pytest.raises(ConfigError) as error:
        Accord.open(config, db_url=database_url, keys_dir=tmp_path / "keys")

    assert error.value.context["key_path"] == key_path
    assert error.value.context["rule"] == rule
    assert error.value.context["file"] == str(config)
    assert error.value.message == f"{config}: {key_path}: {rule}"


def test_tier1_rungs_chosen_in_yaml_are_the_only_ones_tier_one_runs(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    config = write_config(
        tmp_path,
        {"conflict_resolution": {"strategy": "human", "tier1": ["source_verification"]}},
    )
    accord = open_accord(config)

    case = accord.settle(
        "Total?",
        [
            {"agent": "agent:x", "output": 100, "confidence": 0.9},
            {"agent": "agent:y", "output": 200, "confidence": 0.5},
        ],
    )

    assert [a.rung for a in case.attempts][:1] == ["source_verification"]
    assert "confidence" not in [a.rung for a in case.attempts]


def test_a_decision_port_given_to_accord_open_lets_the_common_manager_decide(
    tmp_path: Path, database_url: str
) -> None:
    config = write_config(
        tmp_path,
        {
            "org": write_org_with_agent_coo(tmp_path),
            "conflict_resolution": critical_opt_in({"strategy": "authority"}),
        },
    )
    accord = Accord.open(
        config,
        db_url=database_url,
        keys_dir=tmp_path / "keys",
        decision_port=FakeDecisionPort({"agent:coo": "false"}),
    )
    try:
        case = accord.settle("Pay?", contradiction("agent:backend", "agent:billing"))
    finally:
        accord.close()

    assert case.decision is not None
    assert case.decision.winner == "agent:billing"
