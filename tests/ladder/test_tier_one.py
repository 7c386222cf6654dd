"""The tier-1 ladder: rungs in chain order, and the playbook's escalation rules (§7)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from accord.conflicts import (
    DEFAULT_CHAIN,
    Classification,
    ConflictKind,
    DecisionTable,
    DisputeType,
    Severity,
    Tier,
)
from accord.ladder import TIER_ONE_RUNGS, LadderSettings, run_tier_one

from ..org._builders import chart, member
from ._builders import chain_table, context, pos, registry, source_says


def test_tier_one_runs_source_verification_then_confidence_authority_and_vote() -> None:
    assert TIER_ONE_RUNGS == ("source_verification", "confidence", "authority", "vote")
    assert LadderSettings() == LadderSettings(
        confidence_tie_gap=0.1, min_confidence=0.5, source_tolerance=0.10
    )


def test_the_first_rung_that_decides_settles_the_case_and_later_rungs_are_not_tried() -> None:
    ctx = context([pos("a", 100, 0.95), pos("b", 200, 0.3), pos("c", 200, 0.3)])

    outcome = run_tier_one(ctx, registry())

    assert outcome.decided
    assert outcome.rung == "confidence"
    assert ctx.detection.groups[outcome.group or 0].agents == ("a",)
    assert outcome.confidence == 0.95
    assert [a.rung for a in outcome.attempts] == ["source_verification", "confidence"]
    assert outcome.escalation_reason is None
    assert outcome.next_step is None


def test_a_source_of_truth_outranks_every_other_rung_in_the_default_chain() -> None:
    ctx = context([pos("a", 100, 0.95), pos("b", 200, 0.3), pos("c", 200, 0.3)])

    outcome = run_tier_one(ctx, registry(source_says(200)))

    assert outcome.rung == "source_verification"
    assert ctx.detection.groups[outcome.group or 0].agents == ("b", "c")
    assert outcome.confidence == 1.0


def test_a_custom_chain_is_followed_in_its_own_order() -> None:
    positions = [pos("a", 100, 0.95), pos("b", 200, 0.3), pos("c", 200, 0.3)]
    ctx = context(positions, table=chain_table("vote", "confidence", "arbitration", "human"))

    outcome = run_tier_one(ctx, registry())

    assert outcome.rung == "vote"
    assert ctx.detection.groups[outcome.group or 0].agents == ("b", "c")
    assert [a.rung for a in outcome.attempts] == ["vote"]


def test_rungs_missing_from_the_chain_are_never_tried() -> None:
    ctx = context(
        [pos("a", 100), pos("b", 200), pos("c", 200)], table=chain_table("confidence", "human")
    )

    outcome = run_tier_one(ctx, registry(source_says(100)))

    assert not outcome.decided
    assert [a.rung for a in outcome.attempts] == ["confidence"]


def test_tier_one_rungs_placed_after_a_later_tier_step_are_left_to_that_tier() -> None:
    ctx = context(
        [pos("a", 100), pos("b", 200), pos("c", 200)],
        table=chain_table("confidence", "arbitration", "vote"),
    )

    outcome = run_tier_one(ctx, registry())

    assert not outcome.decided
    assert [a.rung for a in outcome.attempts] == ["confidence"]
    assert outcome.next_step == "arbitration"


def test_when_every_rung_fails_the_case_escalates_with_every_attempt_and_the_next_step() -> None:
    org = chart([member("a", seniority="mid"), member("b", seniority="mid")])
    ctx = context([pos("a", 100, 0.6), pos("b", 200, 0.65)], org=org)

    outcome = run_tier_one(ctx, registry(source_says(150)))

    assert not outcome.decided
    assert outcome.rung is None
    assert outcome.group is None
    assert outcome.confidence == 0.0
    assert [a.rung for a in outcome.attempts] == list(TIER_ONE_RUNGS)
    assert not any(a.decided for a in outcome.attempts)
    assert outcome.escalation_reason == "no tier-1 rung could decide"
    assert outcome.next_step == "arbitration"


@pytest.mark.parametrize(
    ("chain", "next_step"),
    [
        (DEFAULT_CHAIN, "arbitration"),
        (("confidence", "debate", "human"), "debate"),
        (("vote", "hybrid", "arbitration"), "hybrid"),
        (("authority", "human"), "human"),
        (("source_verification", "confidence", "authority", "vote"), None),
    ],
)
def test_the_next_step_is_the_first_step_of_the_chain_beyond_tier_one(
    chain: tuple[str, ...], next_step: str | None
) -> None:
    ctx = context([pos("a", 100), pos("b", 200)], table=chain_table(*chain))

    assert run_tier_one(ctx, registry()).next_step == next_step


def test_a_decision_under_the_minimum_confidence_escalates_and_stops_the_ladder() -> None:
    ctx = context([pos("a", 100, 0.45), pos("b", 200, 0.1), pos("c", 100, 0.1)])

    outcome = run_tier_one(ctx, registry())

    assert not outcome.decided
    assert outcome.group is None
    assert outcome.escalation_reason == "confidence decided with confidence 0.45, under 0.50"
    assert [a.rung for a in outcome.attempts] == ["source_verification", "confidence"]
    assert outcome.attempts[-1].decided
    assert outcome.next_step == "arbitration"


def test_the_minimum_confidence_is_a_setting() -> None:
    ctx = context([pos("a", 100, 0.8), pos("b", 200, 0.3)])

    strict = run_tier_one(ctx, registry(), LadderSettings(min_confidence=0.9))
    lenient = run_tier_one(ctx, registry(), LadderSettings(min_confidence=0.8))

    assert not strict.decided
    assert strict.escalation_reason == "confidence decided with confidence 0.80, under 0.90"
    assert lenient.decided


def test_a_vote_with_too_small_a_share_escalates() -> None:
    ctx = context(
        [pos("a", 1), pos("b", 1), pos("c", 100), pos("d", 10_000), pos("e", 10**6)],
        table=chain_table("vote", "human"),
    )

    outcome = run_tier_one(ctx, registry())

    assert not outcome.decided
    assert outcome.escalation_reason == "vote decided with confidence 0.40, under 0.50"


def test_the_source_tolerance_is_a_setting() -> None:
    ctx = context([pos("a", 100), pos("b", 200)], table=chain_table("source_verification"))

    loose = run_tier_one(ctx, registry(source_says(104)), LadderSettings(source_tolerance=0.05))
    tight = run_tier_one(ctx, registry(source_says(104)), LadderSettings(source_tolerance=0.01))

    assert loose.decided
    assert not tight.decided


def test_the_confidence_tie_gap_is_a_setting() -> None:
    ctx = context([pos("a", 100, 0.9), pos("b", 200, 0.7)])

    assert run_tier_one(ctx, registry(), LadderSettings(confidence_tie_gap=0.1)).decided
    assert not run_tier_one(ctx, registry(), LadderSettings(confidence_tie_gap=0.3)).decided


# --- critical conflicts (playbook §7: critical without a source of truth escalates) ----


def test_a_critical_conflict_never_settles_by_confidence_authority_or_vote() -> None:
    org = chart([member("a", seniority="vp"), member("b"), member("c")])
    ctx = context([pos("a", True, 0.99), pos("b", False, 0.1), pos("c", True, 0.99)], org=org)
    assert ctx.classification.severity is Severity.CRITICAL

    outcome = run_tier_one(ctx, registry())

    assert not outcome.decided
    assert [a.rung for a in outcome.attempts] == ["source_verification"]
    assert outcome.escalation_reason == (
        "critical conflicts without source verification never settle at tier 1"
    )
    assert outcome.next_step == "arbitration"


def test_the_ladder_skips_shortcuts_even_in_a_critical_chain_that_lists_them() -> None:
    ctx = context([pos("a", True, 0.99), pos("b", False, 0.1), pos("c", True, 0.99)])
    permissive = ctx.classification.model_copy(update={"strategy_chain": DEFAULT_CHAIN})
    unsafe = replace(ctx, classification=permissive)

    outcome = run_tier_one(unsafe, registry())

    assert not outcome.decided
    assert [a.rung for a in outcome.attempts] == ["source_verification"]


def test_source_verification_may_settle_a_critical_conflict() -> None:
    ctx = context([pos("a", True, 0.2), pos("b", False, 0.99)])

    outcome = run_tier_one(ctx, registry(source_says(True, "policy-db")))

    assert outcome.decided
    assert outcome.rung == "source_verification"
    assert ctx.detection.groups[outcome.group or 0].answer is True


# --- starting tier (R2, R18) ------------------------------------------------------------


def test_a_dispute_type_that_starts_above_tier_one_escalates_at_once_citing_r2() -> None:
    table = DecisionTable(
        dispute_types={ConflictKind.NUMERICAL_INCONSISTENCY: DisputeType.DIRECTIVE_CONFLICT}
    )
    ctx = context([pos("a", 100, 0.99), pos("b", 200, 0.1)], table=table)

    outcome = run_tier_one(ctx, registry(source_says(100)))

    assert not outcome.decided
    assert outcome.attempts == ()
    assert outcome.escalation_reason == (
        "directive_conflict disputes start at contextual_arbitration (R2)"
    )
    assert outcome.next_step == "arbitration"


def test_a_critical_dispute_starting_at_human_appeal_escalates_at_once_citing_r18() -> None:
    table = DecisionTable(critical_starts_at_human_appeal=True)
    ctx = context([pos("a", True), pos("b", False)], table=table)

    outcome = run_tier_one(ctx, registry(source_says(True)))

    assert not outcome.decided
    assert outcome.attempts == ()
    assert outcome.escalation_reason == (
        "critical capability_conflict disputes start at human_appeal (R18)"
    )


def test_a_starting_tier_above_one_wins_over_an_otherwise_decisive_chain() -> None:
    ctx = context([pos("a", 100, 0.99), pos("b", 200, 0.1)])
    above = Classification(
        kind=ctx.classification.kind,
        severity=ctx.classification.severity,
        dispute_type=DisputeType.RESOURCE_CONFLICT,
        starting_tier=Tier.HUMAN_APPEAL,
        strategy_chain=("confidence", "human"),
    )
    shifted = replace(ctx, classification=above)

    outcome = run_tier_one(shifted, registry())

    assert not outcome.decided
    assert outcome.escalation_reason == "resource_conflict disputes start at human_appeal (R2)"
    assert outcome.next_step == "human"
