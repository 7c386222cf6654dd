"""Timeout policies are pure: deadlines and deadline actions per kind, risk and step."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.approvals import (
    DenyAfter,
    EscalationChain,
    EscalationStep,
    Tiered,
    TierRule,
    WaitForever,
    next_deadline,
    on_deadline,
    role_at_step,
)
from accord.approvals.policies import Risk, TimeoutPolicy

START = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
RISKS: tuple[Risk, ...] = ("low", "medium", "high", "critical")

TIERED = Tiered(
    tiers={
        "low": TierRule(timeout_minutes=60, on_timeout="approve"),
        "high": TierRule(timeout_minutes=30, on_timeout="deny"),
        "critical": TierRule(on_timeout="wait"),
    }
)
CHAIN = EscalationChain(
    steps=(
        EscalationStep(role="lead", timeout_minutes=30),
        EscalationStep(role="director", timeout_minutes=120),
    ),
    on_chain_exhausted="deny",
)


def test_wait_forever_has_no_deadline_and_waits() -> None:
    assert next_deadline(WaitForever(), "critical", 0, START) is None
    assert on_deadline(WaitForever(), "critical", 0) == "wait"
    assert role_at_step(WaitForever(), 0) is None


def test_deny_after_denies_once_its_timeout_passes() -> None:
    policy = DenyAfter(timeout_minutes=45)
    assert next_deadline(policy, "low", 0, START) == START + timedelta(minutes=45)
    assert on_deadline(policy, "low", 0) == "deny"


@pytest.mark.parametrize(
    ("risk", "deadline", "action"),
    [
        ("low", START + timedelta(minutes=60), "approve"),
        ("high", START + timedelta(minutes=30), "deny"),
        ("critical", None, "wait"),
        ("medium", None, "wait"),  # no tier: waits for a person
    ],
)
def test_tiered_chooses_by_risk(risk: Risk, deadline: datetime | None, action: str) -> None:
    assert next_deadline(TIERED, risk, 0, START) == deadline
    assert on_deadline(TIERED, risk, 0) == action


def test_escalation_chain_moves_through_roles_then_applies_its_fallback() -> None:
    assert role_at_step(CHAIN, 0) == "lead"
    assert next_deadline(CHAIN, "low", 0, START) == START + timedelta(minutes=30)
    assert on_deadline(CHAIN, "low", 0) == "escalate"
    assert role_at_step(CHAIN, 1) == "director"
    assert next_deadline(CHAIN, "low", 1, START) == START + timedelta(minutes=120)
    assert on_deadline(CHAIN, "low", 1) == "deny"
    assert next_deadline(CHAIN, "low", 2, START) is None
    assert role_at_step(CHAIN, 5) == "director"


def test_escalation_steps_accept_role_and_minutes_pairs() -> None:
    chain = EscalationChain.model_validate(
        {
            "steps": [["lead", 10], {"role": "cto", "timeout_minutes": 20}],
            "on_chain_exhausted": "wait",
        }
    )
    assert chain.steps == (
        EscalationStep(role="lead", timeout_minutes=10),
        EscalationStep(role="cto", timeout_minutes=20),
    )


def test_a_tier_that_waits_takes_no_timeout_and_the_others_need_one() -> None:
    with pytest.raises(ValueError, match="drop timeout_minutes"):
        TierRule(timeout_minutes=5, on_timeout="wait")
    with pytest.raises(ValueError, match="needs timeout_minutes"):
        TierRule(on_timeout="approve")


policies = st.one_of(
    st.just(WaitForever()),
    st.builds(DenyAfter, timeout_minutes=st.integers(1, 525_600)),
    st.just(TIERED),
    st.builds(
        EscalationChain,
        steps=st.lists(
            st.builds(
                EscalationStep,
                role=st.sampled_from(["lead", "director", "cto"]),
                timeout_minutes=st.integers(1, 525_600),
            ),
            min_size=1,
            max_size=4,
        ).map(tuple),
        on_chain_exhausted=st.sampled_from(["approve", "deny", "wait"]),
    ),
)


@given(
    policy=policies,
    risk=st.sampled_from(RISKS),
    step=st.integers(0, 5),
    start=st.datetimes(
        min_value=datetime(2000, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)
    ),
)
def test_deadlines_never_precede_their_start(
    policy: TimeoutPolicy, risk: Risk, step: int, start: datetime
) -> None:
    deadline = next_deadline(policy, risk, step, start)
    assert deadline is None or deadline > start
    assert on_deadline(policy, risk, step) in ("approve", "deny", "wait", "escalate")
