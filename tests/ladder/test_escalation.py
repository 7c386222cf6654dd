"""What comes after tier 1: the escalation target, the policy's tier-1 rungs, the critical rule."""

from __future__ import annotations

import pytest

from accord.conflicts import Classification, ConflictKind, DisputeType, Severity, Tier
from accord.ladder import (
    StrategyChoice,
    after_tier_one,
    escalation_target,
    with_tier_one_rungs,
)


def classification(
    starting_tier: Tier = Tier.DIRECT_NEGOTIATION,
    chain: tuple[str, ...] = ("source_verification", "vote", "debate", "human"),
    severity: Severity = Severity.HIGH,
) -> Classification:
    return Classification(
        kind=ConflictKind.NUMERICAL_INCONSISTENCY,
        severity=severity,
        dispute_type=DisputeType.CAPABILITY_CONFLICT,
        starting_tier=starting_tier,
        strategy_chain=chain,
    )


def choice(opt_in: str | None = None) -> StrategyChoice:
    return StrategyChoice(
        strategy="debate",
        settings={"judge": "manager"},
        tier1=("vote",),
        chosen_by="department:finance",
        critical_opt_in=opt_in,
        department="finance",
    )


@pytest.mark.parametrize(
    ("next_step", "target"),
    [
        ("arbitration", Tier.CONTEXTUAL_ARBITRATION),
        ("debate", Tier.CONTEXTUAL_ARBITRATION),
        ("hybrid", Tier.CONTEXTUAL_ARBITRATION),
        ("human", Tier.HUMAN_APPEAL),
        (None, Tier.HUMAN_APPEAL),
    ],
)
def test_an_unsettled_case_escalates_to_the_tier_of_the_chains_next_step(
    next_step: str | None, target: Tier
) -> None:
    assert escalation_target(classification(), next_step) is target


def test_r02_the_escalation_target_is_never_below_the_dispute_types_starting_tier() -> None:
    directive = classification(starting_tier=Tier.CONTEXTUAL_ARBITRATION)
    assert escalation_target(directive, "debate") is Tier.CONTEXTUAL_ARBITRATION
    assert escalation_target(directive, "human") is Tier.HUMAN_APPEAL


def test_r18_a_dispute_starting_at_human_appeal_escalates_there_whatever_the_chain_says() -> None:
    appeal = classification(starting_tier=Tier.HUMAN_APPEAL, severity=Severity.CRITICAL)
    assert escalation_target(appeal, "arbitration") is Tier.HUMAN_APPEAL


def test_the_policys_tier_one_rungs_replace_the_chains_and_keep_its_later_steps() -> None:
    replaced = with_tier_one_rungs(classification(), ("confidence", "authority"))
    assert replaced.strategy_chain == ("confidence", "authority", "debate", "human")
    assert replaced.kind is ConflictKind.NUMERICAL_INCONSISTENCY


def test_without_policy_rungs_the_chain_is_kept() -> None:
    original = classification()
    assert with_tier_one_rungs(original, None) is original


def test_empty_policy_rungs_leave_only_the_later_steps() -> None:
    assert with_tier_one_rungs(classification(), ()).strategy_chain == ("debate", "human")


def test_a_non_critical_case_runs_the_policys_choice_after_tier_one() -> None:
    chosen = choice()
    assert after_tier_one(chosen, Severity.HIGH) is chosen


def test_a_critical_case_goes_to_people_unless_its_conflict_type_opted_in() -> None:
    people = after_tier_one(choice(), Severity.CRITICAL)
    assert (people.strategy, people.chosen_by, people.settings) == (
        "human",
        "critical_without_source",
        {},
    )
    assert (people.tier1, people.department) == (("vote",), "finance")


def test_a_critical_case_whose_conflict_type_opted_in_runs_the_policys_choice() -> None:
    key = "conflict_resolution.conflict_types.direct_contradiction.critical_without_source"
    opted_in = choice(opt_in=key)
    assert after_tier_one(opted_in, Severity.CRITICAL) is opted_in
