"""DCP-07's deadline rules, pure: first tier, deadline per severity per tier, next step."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accord.clock import FrozenClock
from accord.conflicts import DisputeType, Severity, Tier
from accord.dcp07.deadlines import (
    TIER_ORDER,
    after_deadline,
    first_tier,
    next_tier,
    tier_deadline,
)
from accord.errors import ValidationError


def test_r02_directive_conflicts_start_at_arbitration_and_the_others_at_negotiation() -> None:
    starts = {kind.value: first_tier(kind, Severity.MEDIUM) for kind in DisputeType}
    assert starts == {
        "resource_conflict": Tier.DIRECT_NEGOTIATION,
        "directive_conflict": Tier.CONTEXTUAL_ARBITRATION,
        "capability_conflict": Tier.DIRECT_NEGOTIATION,
        "policy_conflict": Tier.DIRECT_NEGOTIATION,
    }


def test_r18_a_critical_dispute_may_start_at_human_appeal_and_no_other() -> None:
    assert first_tier("resource_conflict", "critical", start_at_appeal=True) is Tier.HUMAN_APPEAL
    assert first_tier("resource_conflict", "critical") is Tier.DIRECT_NEGOTIATION
    with pytest.raises(ValidationError) as refused:
        first_tier("resource_conflict", "high", start_at_appeal=True)
    assert refused.value.context["requirement"] == "R18"


@pytest.mark.parametrize(
    ("severity", "span"),
    [
        ("low", timedelta(hours=24)),
        ("medium", timedelta(hours=4)),
        ("high", timedelta(hours=1)),
        ("critical", timedelta(minutes=15)),
    ],
)
def test_r03_deadline_per_severity_per_tier(severity: str, span: timedelta) -> None:
    assert [tier_deadline(severity, tier) for tier in TIER_ORDER] == [span] * 3


def test_r04_a_passed_deadline_escalates_one_tier_and_restarts_the_clock_there() -> None:
    now = FrozenClock().now()
    step = after_deadline("direct_negotiation", "high", party_escalated=False, now=now)
    assert (step.action, step.from_tier, step.to_tier) == (
        "escalate", Tier.DIRECT_NEGOTIATION, Tier.CONTEXTUAL_ARBITRATION
    )  # fmt: skip
    assert step.next_due == now + timedelta(hours=1)
    onward = after_deadline("contextual_arbitration", "low", party_escalated=False, now=now)
    assert (onward.to_tier, onward.next_due) == (Tier.HUMAN_APPEAL, now + timedelta(hours=24))
    assert next_tier(Tier.HUMAN_APPEAL) is None


def test_r06_an_appeal_whose_deadline_ran_out_with_no_party_escalating_is_abandoned() -> None:
    now = FrozenClock().now()
    abandoned = after_deadline("human_appeal", "medium", party_escalated=False, now=now)
    assert (abandoned.action, abandoned.to_tier, abandoned.next_due) == ("abandon", None, None)
    lapsed = after_deadline("human_appeal", "medium", party_escalated=True, now=now)
    assert (lapsed.action, lapsed.to_tier, lapsed.next_due) == ("lapse", None, None)


@pytest.mark.parametrize(
    ("call", "field", "requirement"),
    [
        (lambda: first_tier("turf_war", "low"), "dispute_type", "R1"),
        (lambda: first_tier("resource_conflict", "urgent"), "severity", "R3"),
        (lambda: tier_deadline("urgent", "human_appeal"), "severity", "R3"),
        (lambda: next_tier("tier_four"), "tier", "R38"),
    ],
)
def test_unknown_types_severities_and_tiers_are_refused_with_their_rule(
    call: object, field: str, requirement: str
) -> None:
    with pytest.raises(ValidationError) as refused:
        call()  # type: ignore[operator]
    assert (refused.value.context["field"], refused.value.context["requirement"]) == (
        field, requirement
    )  # fmt: skip
