"""``decide`` escalating a conflict tier 1 cannot settle: the payload the next tier gets."""

from __future__ import annotations

import pytest

from accord.cases import CaseStatus, SettleStatus
from accord.conflicts import (
    ConflictKind,
    DecisionTable,
    DisputeType,
    Evidence,
    Tier,
)
from accord.ladder import LadderSettings

from ._builders import SUBJECT, TASK, decide_case, pos


def test_an_unsettled_conflict_escalates_with_everything_the_next_tier_needs() -> None:
    proof = Evidence.of("document", {"page": 3}, reference="s3://inv-7.pdf")
    case = decide_case(
        [
            pos(
                "a",
                100,
                0.6,
                evidence=[proof],
                sources=["erp"],
                assumptions=["net"],
                reasoning="sum of lines",
            ),
            pos("b", 200.5, 0.65),
        ]
    )

    assert case.status is SettleStatus.ESCALATED
    assert case.dcp_status is CaseStatus.ESCALATED
    assert case.decision is None
    assert case.dissent == ()
    payload = case.escalation
    assert payload is not None
    assert SUBJECT in payload.summary
    assert TASK in payload.summary
    assert "numerical_inconsistency" in payload.summary
    assert payload.reason == "no tier-1 rung could decide"
    assert payload.outputs == {"a": 100, "b": 200.5}
    assert payload.evidence["a"] == {
        "evidence": [proof.content_hash],
        "sources": ["erp"],
        "assumptions": ["net"],
        "reasoning": "sum of lines",
        "confidence": 0.6,
    }
    assert payload.evidence["b"]["evidence"] == []
    assert payload.evidence["b"]["confidence"] == 0.65
    assert [a.rung for a in payload.strategies_tried] == [
        "source_verification",
        "confidence",
        "authority",
        "vote",
    ]
    assert payload.strategies_tried == case.attempts
    assert payload.confidence == 0.0


def test_an_escalation_under_the_minimum_confidence_reports_that_confidence() -> None:
    case = decide_case(
        [pos("a", 100, 0.8), pos("b", 200, 0.2)], ladder=LadderSettings(min_confidence=0.9)
    )

    assert case.escalation is not None
    assert case.escalation.confidence == 0.8
    assert case.escalation.reason == "confidence decided with confidence 0.80, under 0.90"


@pytest.mark.parametrize(
    ("chain", "next_step", "target"),
    [
        (None, "arbitration", Tier.CONTEXTUAL_ARBITRATION),
        (("confidence", "debate", "human"), "debate", Tier.CONTEXTUAL_ARBITRATION),
        (("confidence", "hybrid"), "hybrid", Tier.CONTEXTUAL_ARBITRATION),
        (("source_verification", "confidence", "human"), "human", Tier.HUMAN_APPEAL),
        (("confidence", "vote"), None, Tier.HUMAN_APPEAL),
    ],
)
def test_the_target_tier_follows_the_next_step_of_the_chain(
    chain: tuple[str, ...] | None, next_step: str | None, target: Tier
) -> None:
    table = DecisionTable(default_chain=chain) if chain else DecisionTable()

    case = decide_case([pos("a", 100), pos("b", 200)], table=table)

    assert case.escalation is not None
    assert case.escalation.next_step == next_step
    assert case.escalation.target_tier is target
    assert case.tier is target


def test_a_directive_conflict_goes_straight_to_contextual_arbitration() -> None:
    table = DecisionTable(
        dispute_types={ConflictKind.NUMERICAL_INCONSISTENCY: DisputeType.DIRECTIVE_CONFLICT}
    )

    case = decide_case([pos("a", 100, 0.99), pos("b", 200, 0.1)], table=table, truth=100)

    assert case.status is SettleStatus.ESCALATED
    assert case.tier is Tier.CONTEXTUAL_ARBITRATION
    assert case.attempts == ()
    assert case.escalation is not None
    assert case.escalation.reason.endswith("(R2)")


def test_a_critical_dispute_that_starts_at_human_appeal_is_escalated_to_human_appeal() -> None:
    table = DecisionTable(critical_starts_at_human_appeal=True)

    case = decide_case([pos("a", True), pos("b", False)], table=table)

    assert case.escalation is not None
    assert case.escalation.next_step == "arbitration"
    assert case.escalation.target_tier is Tier.HUMAN_APPEAL
    assert case.tier is Tier.HUMAN_APPEAL
    assert case.escalation.reason.endswith("(R18)")


def test_a_critical_conflict_without_a_source_escalates_even_with_lopsided_confidence() -> None:
    case = decide_case([pos("a", True, 0.99), pos("b", False, 0.01)])

    assert case.status is SettleStatus.ESCALATED
    assert case.escalation is not None
    assert case.escalation.reason == (
        "critical conflicts without source verification never settle at tier 1"
    )
    assert case.tier is Tier.CONTEXTUAL_ARBITRATION
