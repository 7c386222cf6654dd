"""The resolution room's public names."""

from __future__ import annotations

import accord.ladder as resolution


def test_the_tier_one_api_is_exported() -> None:
    for name in [
        "TIER_ONE_RUNGS",
        "LadderSettings",
        "RungAttempt",
        "RungContext",
        "SourceFinding",
        "SourceVerifier",
        "TierOneOutcome",
        "VerifierRegistry",
        "run_tier_one",
    ]:
        assert name in resolution.__all__
        assert getattr(resolution, name) is not None


def test_the_escalation_ladder_and_its_policy_are_exported() -> None:
    for name in [
        "CRITICAL_KEY",
        "CRITICAL_TO_PEOPLE",
        "NEXT_TIER",
        "ResolutionPolicy",
        "StrategyChoice",
        "after_tier_one",
        "escalation_target",
        "with_tier_one_rungs",
    ]:
        assert name in resolution.__all__
        assert getattr(resolution, name) is not None


def test_every_exported_name_exists() -> None:
    assert all(hasattr(resolution, name) for name in resolution.__all__)
