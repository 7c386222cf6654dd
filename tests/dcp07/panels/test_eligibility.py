"""Panel eligibility (R11–R13, R32): every rule checked for every candidate, every reason kept."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accord.dcp07.panels import CandidateEligibility, EligibilityRules, check_candidate
from accord.org import LifecycleState
from accord.org.interaction_store import InteractionLog
from accord.org.interactions import InteractionHistory
from accord.store import open_database

from ._builders import NOW, PARTIES, Disputes, Interactions, member


def check(
    candidate_fields: dict[str, object] | None = None,
    *,
    disputes: Disputes | None = None,
    interactions: InteractionHistory | None = None,
    rules: EligibilityRules | None = None,
    agent_id: str = "arb:x",
) -> CandidateEligibility:
    return check_candidate(
        member(agent_id, **(candidate_fields or {})),  # type: ignore[arg-type]
        PARTIES,
        disputes=disputes or Disputes(),
        interactions=interactions or Interactions(),
        now=NOW,
        rules=rules,
    )


def test_r32_an_independent_active_healthy_member_is_eligible() -> None:
    result = check()
    assert result.eligible
    assert result.reasons == ()
    assert result.checked_at == NOW


def test_r11_member_with_active_dispute_is_ineligible() -> None:
    result = check(disputes=Disputes({frozenset(("arb:x", "agent:audit")): ["disp:9"]}))
    assert not result.eligible
    assert result.breaks("R11")
    (reason,) = result.reasons
    assert reason.party == "agent:audit"
    assert "disp:9" in reason.detail


def test_r32_member_sharing_a_principal_with_a_party_is_ineligible() -> None:
    result = check({"principal_id": "user:bo"})
    assert result.breaks("R32")
    assert result.reasons[0].party == "agent:audit"
    assert "user:bo" in result.reasons[0].detail


def test_r32_member_who_interacted_with_a_party_in_the_last_30_days_is_ineligible() -> None:
    recent = Interactions({frozenset(("arb:x", "agent:billing")): NOW - timedelta(days=29)})
    result = check(interactions=recent)
    assert result.breaks("R32")
    assert result.reasons[0].party == "agent:billing"


def test_r32_an_interaction_exactly_30_days_ago_is_outside_the_window() -> None:
    old = Interactions({frozenset(("arb:x", "agent:billing")): NOW - timedelta(days=30)})
    assert check(interactions=old).eligible


def test_r32_the_interaction_window_is_configurable() -> None:
    week_ago = Interactions({frozenset(("arb:x", "agent:billing")): NOW - timedelta(days=7)})
    assert check(interactions=week_ago).breaks("R32")
    assert check(
        interactions=week_ago, rules=EligibilityRules(interaction_window=timedelta(days=5))
    ).eligible


@pytest.mark.parametrize(("vitality", "eligible"), [(600, False), (601, True), (0, False)])
def test_r12_vitality_must_be_above_600(vitality: int, eligible: bool) -> None:
    result = check({"vitality": vitality})
    assert result.eligible is eligible
    assert result.breaks("R12") is not eligible


@pytest.mark.parametrize("state", [s for s in LifecycleState if s is not LifecycleState.ACTIVE])
def test_r13_member_not_in_state_active_is_ineligible(state: LifecycleState) -> None:
    result = check({"state": state})
    assert result.breaks("R13")
    assert state.value in result.reasons[0].detail


def test_r32_every_reason_is_recorded_not_only_the_first() -> None:
    result = check(
        {"principal_id": "user:ana", "vitality": 100, "state": LifecycleState.SUSPENDED},
        disputes=Disputes({frozenset(("arb:x", "agent:audit")): ["disp:9"]}),
        interactions=Interactions({frozenset(("arb:x", "agent:audit")): NOW}),
    )
    assert [r.requirement for r in result.reasons] == ["R32", "R11", "R32", "R12", "R13"]


def test_r32_a_party_cannot_sit_on_its_own_panel() -> None:
    result = check(agent_id="agent:audit")
    assert result.breaks("R32")
    assert "is a party" in result.reasons[0].detail


def test_r32_eligibility_reads_the_interaction_log(database_url: str) -> None:
    db = open_database(database_url)
    try:
        log = InteractionLog(db)
        log.record("agent:billing", "arb:x", NOW - timedelta(days=2))
        assert check(interactions=log).breaks("R32")
        assert check(agent_id="arb:y", interactions=log).eligible
    finally:
        db.dispose()


def test_r32_an_eligibility_record_says_eligible_exactly_when_it_has_no_reason() -> None:
    with pytest.raises(ValueError, match="exactly when no reason"):
        CandidateEligibility(agent_id="arb:x", eligible=False, reasons=(), checked_at=NOW)


def test_r12_the_vitality_floor_is_configurable_and_the_window_is_not_negative() -> None:
    assert check({"vitality": 700}, rules=EligibilityRules(min_vitality=800)).breaks("R12")
    with pytest.raises(ValueError, match="not negative"):
        EligibilityRules(interaction_window=timedelta(days=-1))
