from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError as PydanticValidationError

from accord.conflicts import (
    CHAIN_STEPS,
    CRITICAL_CHAIN,
    DEFAULT_CHAIN,
    STARTING_TIERS,
    ChainOverrides,
    ConflictKind,
    DecisionTable,
    Detection,
    DisputeType,
    OutputKind,
    Severity,
    Tier,
    classify,
    detect,
)
from accord.errors import ConfigError, ValidationError

from ._builders import positions


def conflict(kind: ConflictKind, severity: Severity) -> Detection:
    return Detection(
        has_conflict=True,
        complementary=False,
        output_kind=OutputKind.NUMBER,
        kind=kind,
        severity=severity,
        groups=(),
        majority=None,
        field_conflicts=(),
        description="",
        max_gap=None,
    )


@pytest.mark.parametrize(
    ("kind", "dispute_type"),
    [
        (ConflictKind.DIRECT_CONTRADICTION, DisputeType.CAPABILITY_CONFLICT),
        (ConflictKind.NUMERICAL_INCONSISTENCY, DisputeType.CAPABILITY_CONFLICT),
        (ConflictKind.LOGICAL_CONFLICT, DisputeType.POLICY_CONFLICT),
        (ConflictKind.PRIORITY_CONFLICT, DisputeType.RESOURCE_CONFLICT),
    ],
)
def test_each_conflict_kind_has_a_default_dispute_type(
    kind: ConflictKind, dispute_type: DisputeType
) -> None:
    assert classify(conflict(kind, Severity.MEDIUM)).dispute_type is dispute_type


def test_r01_there_are_exactly_four_dispute_types() -> None:
    assert {member.value for member in DisputeType} == {
        "resource_conflict",
        "directive_conflict",
        "capability_conflict",
        "policy_conflict",
    }


def test_r02_directive_conflicts_start_at_arbitration_and_the_rest_at_negotiation() -> None:
    assert STARTING_TIERS[DisputeType.DIRECTIVE_CONFLICT] is Tier.CONTEXTUAL_ARBITRATION
    for dispute_type in DisputeType:
        if dispute_type is not DisputeType.DIRECTIVE_CONFLICT:
            assert STARTING_TIERS[dispute_type] is Tier.DIRECT_NEGOTIATION


def test_a_detected_numeric_conflict_is_classified_with_the_default_chain() -> None:
    classification = classify(detect(positions(1200, 1450)))
    assert classification.kind is ConflictKind.NUMERICAL_INCONSISTENCY
    assert classification.severity is Severity.MEDIUM
    assert classification.dispute_type is DisputeType.CAPABILITY_CONFLICT
    assert classification.starting_tier is Tier.DIRECT_NEGOTIATION
    assert classification.strategy_chain == (
        "source_verification",
        "confidence",
        "authority",
        "vote",
        "arbitration",
        "human",
    )


def test_critical_conflicts_skip_the_confidence_authority_and_vote_shortcuts() -> None:
    classification = classify(detect(positions(True, False)))
    assert classification.severity is Severity.CRITICAL
    assert classification.strategy_chain == ("source_verification", "arbitration", "human")
    assert classification.starting_tier is Tier.DIRECT_NEGOTIATION


def test_r18_critical_conflicts_may_be_configured_to_start_at_human_appeal() -> None:
    table = DecisionTable(critical_starts_at_human_appeal=True)
    assert classify(detect(positions(True, False)), table).starting_tier is Tier.HUMAN_APPEAL
    assert classify(detect(positions(1, 2)), table).starting_tier is Tier.DIRECT_NEGOTIATION


def test_a_detection_without_conflict_cannot_be_classified() -> None:
    with pytest.raises(ValidationError) as caught:
        classify(detect(positions(1, 1)))
    assert caught.value.code == "conflicts.nothing_to_classify"


def test_the_default_chains_use_only_valid_steps() -> None:
    assert set(DEFAULT_CHAIN) <= set(CHAIN_STEPS)
    assert set(CRITICAL_CHAIN) <= set(CHAIN_STEPS)


YAML_SECTION: dict[str, Any] = {
    "critical_starts_at_human_appeal": True,
    "dispute_types": {"logical_conflict": "directive_conflict"},
    "chains": {
        "numerical_inconsistency": {
            "high": ["source_verification", "confidence", "vote", "arbitration", "human"],
            "default": ["confidence", "human"],
        },
        "default": ["source_verification", "debate", "human"],
        "critical": ["source_verification", "hybrid", "human"],
    },
}


def test_overrides_are_read_from_the_yaml_section() -> None:
    table = DecisionTable.from_mapping(
        YAML_SECTION, source="accord.yaml", key_prefix="classification"
    )
    assert table.critical_starts_at_human_appeal
    logical = classify(conflict(ConflictKind.LOGICAL_CONFLICT, Severity.HIGH), table)
    assert logical.dispute_type is DisputeType.DIRECTIVE_CONFLICT
    assert logical.starting_tier is Tier.CONTEXTUAL_ARBITRATION
    assert logical.strategy_chain == ("source_verification", "debate", "human")
    numeric = ConflictKind.NUMERICAL_INCONSISTENCY
    assert table.chain_for(numeric, Severity.HIGH) == (
        "source_verification",
        "confidence",
        "vote",
        "arbitration",
        "human",
    )
    assert table.chain_for(numeric, Severity.LOW) == ("confidence", "human")
    assert table.chain_for(numeric, Severity.CRITICAL) == ("source_verification", "hybrid", "human")
    critical = classify(conflict(ConflictKind.DIRECT_CONTRADICTION, Severity.CRITICAL), table)
    assert critical.starting_tier is Tier.HUMAN_APPEAL
    assert critical.dispute_type is DisputeType.CAPABILITY_CONFLICT  # untouched default


def test_a_kind_may_configure_its_own_critical_chain() -> None:
    table = DecisionTable.from_mapping(
        {"chains": {"logical_conflict": {"critical": ["arbitration", "human"]}}}, source="a.yaml"
    )
    assert table.chain_for(ConflictKind.LOGICAL_CONFLICT, Severity.CRITICAL) == (
        "arbitration",
        "human",
    )
    assert table.chain_for(ConflictKind.PRIORITY_CONFLICT, Severity.CRITICAL) == CRITICAL_CHAIN


def test_only_the_default_chain_may_be_overridden() -> None:
    table = DecisionTable.from_mapping({"chains": {"default": ["vote", "human"]}}, source="a.yaml")
    assert table.chain_for(ConflictKind.LOGICAL_CONFLICT, Severity.LOW) == ("vote", "human")
    assert table.chains == {}


def test_an_empty_section_gives_the_defaults() -> None:
    assert DecisionTable.from_mapping({}, source="a.yaml") == DecisionTable()


VALID = ", ".join(sorted(CHAIN_STEPS))


@pytest.mark.parametrize(
    ("data", "code", "key_path", "rule"),
    [
        ([], "config.wrong_type", "classification", "expected a mapping, got a list"),
        ({"tiers": {}}, "config.unknown_key", "classification.tiers", "allowed keys"),
        (
            {"critical_starts_at_human_appeal": "yes"},
            "config.wrong_type",
            "classification.critical_starts_at_human_appeal",
            "expected a boolean, got a string",
        ),
        ({"dispute_types": ["x"]}, "config.wrong_type", "classification.dispute_types", "mapping"),
        (
            {"dispute_types": {"contradiction": "policy_conflict"}},
            "config.unknown_key",
            "classification.dispute_types.contradiction",
            "direct_contradiction",
        ),
        (
            {"dispute_types": {"logical_conflict": "ethics_conflict"}},
            "config.invalid",
            "classification.dispute_types.logical_conflict",
            "valid types: resource_conflict",
        ),
        (
            {"dispute_types": {"logical_conflict": 3}},
            "config.wrong_type",
            "classification.dispute_types.logical_conflict",
            "expected a string",
        ),
        ({"chains": "vote"}, "config.wrong_type", "classification.chains", "mapping"),
        (
            {"chains": {"minor": ["vote"]}},
            "config.unknown_key",
            "classification.chains.minor",
            "numerical_inconsistency",
        ),
        (
            {"chains": {"logical_conflict": {"severe": ["vote"]}}},
            "config.unknown_key",
            "classification.chains.logical_conflict.severe",
            "critical, default, high, low, medium",
        ),
        (
            {"chains": {"logical_conflict": ["vote"]}},
            "config.wrong_type",
            "classification.chains.logical_conflict",
            "expected a mapping",
        ),
        (
            {"chains": {"default": "vote"}},
            "config.wrong_type",
            "classification.chains.default",
            "expected a list of step names",
        ),
        (
            {"chains": {"default": {"vote"}}},
            "config.wrong_type",
            "classification.chains.default",
            "expected a list of step names, got a set",
        ),
        (
            {"chains": {"default": ["vote", 2]}},
            "config.wrong_type",
            "classification.chains.default[1]",
            "expected a string, got an integer",
        ),
        (
            {"chains": {"default": ["vote", "coin_flip"]}},
            "config.invalid",
            "classification.chains.default[1]",
            f"unknown step 'coin_flip'; valid steps: {VALID}",
        ),
        (
            {"chains": {"default": []}},
            "config.invalid",
            "classification.chains.default",
            "at least one step",
        ),
        (
            {"chains": {"default": ["vote", "vote"]}},
            "config.invalid",
            "classification.chains.default[1]",
            "appears twice",
        ),
        (
            {"chains": {"default": ["human", "vote"]}},
            "config.invalid",
            "classification.chains.default[0]",
            "'human' must be the last step",
        ),
        (
            {"chains": {"critical": ["source_verification", "vote", "human"]}},
            "config.invalid",
            "classification.chains.critical[1]",
            "only by source verification",
        ),
        (
            {"chains": {"numerical_inconsistency": {"critical": ["confidence", "human"]}}},
            "config.invalid",
            "classification.chains.numerical_inconsistency.critical[0]",
            "only by source verification",
        ),
    ],
)
def test_every_config_problem_names_the_file_key_path_and_rule(
    data: Any, code: str, key_path: str, rule: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        DecisionTable.from_mapping(data, source="accord.yaml", key_prefix="classification")
    error = caught.value
    assert error.code == code
    assert error.context["file"] == "accord.yaml"
    assert error.context["key_path"] == key_path
    assert rule in error.context["rule"]


@pytest.mark.parametrize(
    "fields",
    [
        {"default_chain": ("vote", "oracle")},
        {"critical_chain": ("vote", "human")},
        {"chains": {"logical_conflict": {"severe": ("vote",)}}},
        {"chains": {"logical_conflict": {"high": ()}}},
        {"dispute_types": {"logical_conflict": "ethics_conflict"}},
    ],
)
def test_a_table_built_in_code_checks_the_same_rules(fields: dict[str, Any]) -> None:
    with pytest.raises(PydanticValidationError):
        DecisionTable(**fields)


def test_a_partial_dispute_type_mapping_keeps_the_other_defaults() -> None:
    table = DecisionTable(
        dispute_types={ConflictKind.PRIORITY_CONFLICT: DisputeType.POLICY_CONFLICT}
    )
    assert table.dispute_type_for(ConflictKind.PRIORITY_CONFLICT) is DisputeType.POLICY_CONFLICT
    assert table.dispute_type_for(ConflictKind.LOGICAL_CONFLICT) is DisputeType.POLICY_CONFLICT
    assert table.dispute_type_for(ConflictKind.DIRECT_CONTRADICTION) is (
        DisputeType.CAPABILITY_CONFLICT
    )


def test_chain_overrides_replace_only_the_chains_they_set() -> None:
    table = DecisionTable(critical_starts_at_human_appeal=True)
    overrides = ChainOverrides(
        critical_chain=("source_verification", "human"),
        chains={ConflictKind.LOGICAL_CONFLICT: {"high": ("vote", "debate", "human")}},
    )
    changed = table.with_chains(overrides)
    assert changed.critical_starts_at_human_appeal is True
    assert changed.default_chain == DEFAULT_CHAIN
    assert changed.critical_chain == ("source_verification", "human")
    assert changed.chain_for(ConflictKind.LOGICAL_CONFLICT, Severity.HIGH) == (
        "vote",
        "debate",
        "human",
    )
    assert table.with_chains(ChainOverrides()) == table


def test_chain_overrides_are_checked_by_the_tables_rules() -> None:
    with pytest.raises(PydanticValidationError, match="source verification"):
        ChainOverrides(critical_chain=("confidence", "human"))
    with pytest.raises(PydanticValidationError, match="neither a severity nor 'default'"):
        ChainOverrides(chains={ConflictKind.LOGICAL_CONFLICT: {"severe": ("vote",)}})


def test_chain_overrides_read_from_yaml_name_the_section_they_sit_in() -> None:
    with pytest.raises(ConfigError) as err:
        ChainOverrides.from_mapping(
            {"default": ["human", "vote"]}, source="a.yaml", key_prefix="conflict_resolution"
        )
    assert err.value.context["key_path"] == "conflict_resolution.chains.default[0]"
    assert ChainOverrides.from_mapping(None, source="a.yaml", key_prefix="x") == ChainOverrides()
