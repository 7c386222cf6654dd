"""The settle path makes the policy's choice once per case; tier 1 and tier 2 share it."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import Field

from accord.cases import CaseStore, Settler, SettleStatus, TriageSettings
from accord.cases.tier_two import TierTwo
from accord.clock import FrozenClock
from accord.conflicts import ConflictKind
from accord.ladder import ResolutionPolicy, StrategyChoice, StrategyRegistry, run_isolated
from accord.ledger import Ledger

from ._builders import pos as p
from ._builders import request


class CountingPolicy(ResolutionPolicy):
    """A policy that records every choice asked of it."""

    asked: list[tuple[ConflictKind | None, str | None]] = Field(default_factory=list)

    def choose(self, kind: ConflictKind | None, department: str | None) -> StrategyChoice:
        self.asked.append((kind, department))
        return super().choose(kind, department)


def counting_policy(**section: Any) -> CountingPolicy:
    read = ResolutionPolicy.from_mapping(section, source="accord.yaml")
    return CountingPolicy(company=read.company, conflict_types=read.conflict_types)


def settler_with(
    policy: ResolutionPolicy, ledger: Ledger, store: CaseStore, clock: FrozenClock
) -> Settler:
    tier_two = TierTwo(
        policy=policy,
        resolver_for=StrategyRegistry.with_defaults(discover=False).get,
        run=run_isolated,
    )
    return Settler(
        ledger=ledger, store=store, clock=clock, settings=TriageSettings(), tier_two=tier_two
    )


TIED = request(p("a", 100, 0.8), p("b", 200, 0.8))  # no tier-1 rung can decide a tie


def test_an_escalated_case_asks_the_policy_once_for_tier_one_and_tier_two(
    ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    policy = counting_policy(strategy="authority", tier1=["vote"])
    settler = settler_with(policy, ledger, store, frozen_clock)

    case = settler.settle(TIED)

    assert policy.asked == [(ConflictKind.NUMERICAL_INCONSISTENCY, None)]
    # tier 1 ran the choice's rungs, tier 2 its strategy (no org chart: it could not settle)
    assert [a.rung for a in case.attempts] == ["vote", "authority"]
    assert case.status is SettleStatus.ESCALATED
    assert case.strategy == "authority"


def test_a_case_settled_at_tier_one_asks_the_policy_once(
    ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    policy = counting_policy(tier1=["confidence"])
    settler = settler_with(policy, ledger, store, frozen_clock)

    case = settler.settle(request(p("a", 100, 0.95), p("b", 200, 0.3)))

    assert case.status is SettleStatus.SETTLED
    assert case.decision is not None
    assert case.decision.rung == "confidence"
    assert len(policy.asked) == 1


def test_agreement_never_asks_the_policy(
    ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    policy = counting_policy()
    settler = settler_with(policy, ledger, store, frozen_clock)

    assert settler.settle(request(p("a", 100), p("b", 100))).status is SettleStatus.NO_CONFLICT
    assert policy.asked == []


def test_settle_many_and_settle_async_ask_the_policy_once_per_case(
    ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    policy = counting_policy(strategy="authority")
    settler = settler_with(policy, ledger, store, frozen_clock)

    settler.settle_many([TIED, TIED, request(p("a", 1), p("b", 1))])
    assert len(policy.asked) == 2
    asyncio.run(settler.settle_async(TIED))
    assert len(policy.asked) == 3


def test_a_critical_case_goes_to_people_with_the_one_choice_its_tier_one_used(
    ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    policy = counting_policy(strategy="debate")
    settler = settler_with(policy, ledger, store, frozen_clock)

    case = settler.settle(request(p("a", True, 0.9), p("b", False, 0.9)))

    assert case.detection.severity is not None
    assert case.detection.severity.value == "critical"
    assert len(policy.asked) == 1
    assert case.strategy == "human"  # the critical rule, applied to that one choice
    assert case.escalation is not None
    assert "people decide" in case.escalation.reason
