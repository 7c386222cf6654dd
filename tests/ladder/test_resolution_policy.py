"""conflict_resolution in YAML: precedence conflict type > department > company."""

from __future__ import annotations

from typing import Any

import pytest

from accord.conflicts import ChainOverrides, ConflictKind, DecisionTable
from accord.errors import ConfigError
from accord.ladder.policy import ResolutionPolicy

POLICY: dict[str, Any] = {
    "strategy": "hybrid",
    "debate": {"max_tokens_per_argument": 300, "judge": "manager"},
    "hybrid": {"review_agent": "agent:reviewer"},
    "departments": {
        "engineering": {"strategy": "debate", "debate": {"judge": "agent:cto"}},
        "finance": {"tier1": ["source_verification", "vote"]},
    },
    "conflict_types": {"logical_conflict": {"strategy": "human"}},
}


def policy() -> ResolutionPolicy:
    return ResolutionPolicy.from_mapping(POLICY, source="accord.yaml")


def test_the_company_default_applies_when_nothing_more_specific_does() -> None:
    choice = policy().choose(ConflictKind.NUMERICAL_INCONSISTENCY, "sales")
    assert (choice.strategy, choice.chosen_by) == ("hybrid", "company")
    assert choice.settings == {"review_agent": "agent:reviewer"}


def test_a_department_overrides_the_company_and_merges_settings_key_by_key() -> None:
    choice = policy().choose(ConflictKind.NUMERICAL_INCONSISTENCY, "engineering")
    assert (choice.strategy, choice.chosen_by) == ("debate", "department:engineering")
    assert choice.settings == {"max_tokens_per_argument": 300, "judge": "agent:cto"}


def test_a_conflict_type_overrides_the_department() -> None:
    choice = policy().choose(ConflictKind.LOGICAL_CONFLICT, "engineering")
    assert (choice.strategy, choice.chosen_by) == ("human", "conflict_type:logical_conflict")


def test_tier_one_rungs_can_be_chosen_per_level() -> None:
    assert policy().choose(None, "finance").tier1 == ("source_verification", "vote")
    assert policy().choose(None, None).tier1 is None  # the classification chain decides


def test_no_section_means_authority_for_everyone() -> None:
    choice = ResolutionPolicy.from_mapping(None, source="x").choose(
        ConflictKind.LOGICAL_CONFLICT, None
    )
    assert choice.strategy == "authority"


def test_unknown_strategy_names_fail_with_the_valid_names_and_the_location() -> None:
    bad = {**POLICY, "departments": {"ops": {"strategy": "coin_toss"}}}
    loaded = ResolutionPolicy.from_mapping(bad, source="accord.yaml")
    with pytest.raises(ConfigError) as err:
        loaded.check_strategies(["authority", "debate", "human", "hybrid"], source="accord.yaml")
    assert err.value.context["key_path"] == "conflict_resolution.departments.ops.strategy"
    assert "authority, debate, human, hybrid" in err.value.context["rule"]
    policy().check_strategies(["authority", "debate", "human", "hybrid"], source="accord.yaml")


def test_a_department_name_with_a_dot_is_quoted_in_the_key_path() -> None:
    bad = {**POLICY, "departments": {"ops.eu": {"strategy": "coin_toss"}}}
    loaded = ResolutionPolicy.from_mapping(bad, source="accord.yaml")
    with pytest.raises(ConfigError) as err:
        loaded.check_strategies(["authority", "debate", "human", "hybrid"], source="accord.yaml")
    assert err.value.context["key_path"] == 'conflict_resolution.departments["ops.eu"].strategy'


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"tier1": ["vote", "dice"]}, "conflict_resolution.tier1"),
        ({"debate": "loud"}, "conflict_resolution"),
        ({"conflict_types": {"nonsense": {}}}, "conflict_resolution.conflict_types.nonsense"),
        ({"departments": {"eng": "debate"}}, "conflict_resolution.departments.eng"),
        ({"departments": ["eng"]}, "conflict_resolution.departments"),
        ({"conflict_types": ["x"]}, "conflict_resolution.conflict_types"),
        ({"strategy": ""}, "conflict_resolution.strategy"),
        ("hybrid", "conflict_resolution"),
    ],
)
def test_malformed_policies_name_the_key_path(data: Any, where: str) -> None:
    with pytest.raises(ConfigError) as err:
        ResolutionPolicy.from_mapping(data, source="accord.yaml")
    assert err.value.context["key_path"].startswith(where)


def test_a_settings_block_for_an_unregistered_strategy_is_refused() -> None:
    loaded = ResolutionPolicy.from_mapping({"debat": {"judge": "ceo"}}, source="accord.yaml")
    with pytest.raises(ConfigError) as err:
        loaded.check_strategies(["authority", "debate"], source="accord.yaml")
    assert err.value.context["key_path"] == "conflict_resolution.debat"


def test_a_bad_strategy_setting_is_refused_when_the_config_loads_naming_its_key() -> None:
    from accord.ladder.authority import AuthoritySettings
    from accord.ladder.debate import DebateSettings

    bad = {**POLICY, "departments": {"eng": {"debate": {"max_tokens_per_argument": "lots"}}}}
    loaded = ResolutionPolicy.from_mapping(bad, source="accord.yaml")
    models = {"debate": DebateSettings, "authority": AuthoritySettings}
    with pytest.raises(ConfigError) as err:
        loaded.check_strategies(
            ["authority", "debate", "human", "hybrid"], source="accord.yaml", settings_models=models
        )
    assert err.value.context["key_path"] == (
        "conflict_resolution.departments.eng.debate.max_tokens_per_argument"
    )
    typo = {**POLICY, "authority": {"same_level": "flip_coin"}}
    with pytest.raises(ConfigError) as bad_value:
        ResolutionPolicy.from_mapping(typo, source="accord.yaml").check_strategies(
            ["authority", "debate", "human", "hybrid"], source="accord.yaml", settings_models=models
        )
    assert bad_value.value.context["key_path"] == "conflict_resolution.authority.same_level"


def test_a_department_the_org_chart_does_not_have_is_refused_naming_the_known_ones() -> None:
    loaded = ResolutionPolicy.from_mapping(
        {**POLICY, "departments": {"enginering": {"strategy": "debate"}}}, source="accord.yaml"
    )
    with pytest.raises(ConfigError) as err:
        loaded.check_departments(["engineering", "finance"], source="accord.yaml")
    assert err.value.context["key_path"] == "conflict_resolution.departments.enginering"
    assert "engineering, finance" in err.value.context["rule"]


def test_a_choice_names_the_department_it_was_made_for() -> None:
    assert policy().choose(ConflictKind.LOGICAL_CONFLICT, "engineering").department == "engineering"
    assert policy().choose(ConflictKind.LOGICAL_CONFLICT, "sales").department == "sales"
    assert policy().choose(ConflictKind.LOGICAL_CONFLICT, None).department is None


def test_the_policy_reads_its_chains_the_decision_table_uses() -> None:
    chains = {
        "default": ["vote", "arbitration", "human"],
        "critical": ["source_verification", "human"],
        "logical_conflict": {"high": ["confidence", "debate", "human"]},
    }
    loaded = ResolutionPolicy.from_mapping({**POLICY, "chains": chains}, source="accord.yaml")
    assert loaded.chains.default_chain == ("vote", "arbitration", "human")
    assert loaded.chains.critical_chain == ("source_verification", "human")
    assert loaded.chains.chains == {
        ConflictKind.LOGICAL_CONFLICT: {"high": ("confidence", "debate", "human")}
    }
    assert loaded.choose(ConflictKind.LOGICAL_CONFLICT, "engineering").strategy == "human"


def test_no_chains_keep_the_decision_tables_own() -> None:
    assert policy().chains == ChainOverrides()
    assert DecisionTable().with_chains(policy().chains) == DecisionTable()


@pytest.mark.parametrize(
    ("chains", "where", "rule"),
    [
        (
            {"default": ["vote", "coin_toss"]},
            "conflict_resolution.chains.default[1]",
            "unknown step",
        ),
        (
            {"critical": ["source_verification", "vote"]},
            "conflict_resolution.chains.critical[1]",
            "settle at tier 1 only by source verification",
        ),
        ({"minor": ["vote"]}, "conflict_resolution.chains.minor", "unknown key"),
        ("vote", "conflict_resolution.chains", "mapping"),
    ],
)
def test_bad_chains_fail_at_their_key_path_in_the_policy(
    chains: object, where: str, rule: str
) -> None:
    with pytest.raises(ConfigError) as err:
        ResolutionPolicy.from_mapping({"chains": chains}, source="accord.yaml")
    assert err.value.context["key_path"] == where
    assert rule in err.value.context["rule"]
