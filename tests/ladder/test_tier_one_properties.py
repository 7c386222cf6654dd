"""Properties of the ladder over random conflicts, chains, weights, orgs and sources."""

from __future__ import annotations

from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from accord.conflicts import CHAIN_STEPS, DecisionTable, Position, Severity, detect
from accord.ladder import TIER_ONE_RUNGS, LadderSettings, run_tier_one

from ..org._builders import chart, member
from ._builders import context, pos, registry, source_says

AGENTS = ("a", "b", "c", "d", "e")
LEVELS = ("junior", "mid", "senior", "lead")
ORG = chart([member(agent, seniority=LEVELS[i % len(LEVELS)]) for i, agent in enumerate(AGENTS)])

outputs = st.one_of(
    st.lists(st.sampled_from([1, 2, 50, 100, 104, 300]), min_size=2, max_size=5),
    st.lists(st.booleans(), min_size=2, max_size=5),
    st.lists(st.sampled_from(["accept", "reject", "hold", "Accept."]), min_size=2, max_size=5),
)
confidence = st.none() | st.floats(0.0, 1.0, allow_nan=False)
weight = st.floats(-1.0, 10.0, allow_nan=False)
chains = st.permutations([s for s in CHAIN_STEPS if s != "human"]).flatmap(
    lambda steps: st.integers(1, len(steps)).map(lambda n: (*steps[:n], "human"))
)
truths = st.none() | st.sampled_from([1, 2, 50, 100, 103, 300, True, False, "accept", "HOLD"])


@st.composite
def conflicts(draw: st.DrawFn) -> dict[str, Any]:
    values = draw(outputs)
    positions = [
        pos(agent, value, draw(confidence)) for agent, value in zip(AGENTS, values, strict=False)
    ]
    assume(detect(positions).has_conflict)
    return {
        "positions": positions,
        "weights": {p.agent: draw(weight) for p in positions if draw(st.booleans())},
        "org": draw(st.sampled_from([None, ORG])),
        "chain": draw(chains),
        "truth": draw(truths),
        "ladder": LadderSettings(
            confidence_tie_gap=draw(st.floats(0.0, 0.5)),
            min_confidence=draw(st.floats(0.0, 1.0)),
            source_tolerance=draw(st.floats(0.0, 0.2)),
        ),
    }


def _run(case: dict[str, Any]) -> tuple[Any, Any]:
    positions: list[Position] = case["positions"]
    chain = case["chain"]
    critical_chain = tuple(s for s in chain if s not in {"confidence", "authority", "vote"})
    table = DecisionTable(default_chain=chain, critical_chain=critical_chain or ("human",))
    ctx = context(positions, table=table, org=case["org"], weights=case["weights"])
    truth = case["truth"]
    verifiers = registry(None if truth is None else source_says(truth))
    return ctx, run_tier_one(ctx, verifiers, case["ladder"])


@settings(max_examples=400, deadline=None)
@given(conflicts())
def test_the_ladder_never_decides_for_a_group_that_does_not_exist(case: dict[str, Any]) -> None:
    ctx, outcome = _run(case)

    if outcome.decided:
        assert outcome.group is not None
        assert 0 <= outcome.group < len(ctx.detection.groups)
    else:
        assert outcome.group is None


@settings(max_examples=400, deadline=None)
@given(conflicts())
def test_a_decided_outcome_always_has_at_least_the_minimum_confidence(
    case: dict[str, Any],
) -> None:
    _, outcome = _run(case)

    if outcome.decided:
        assert outcome.confidence >= case["ladder"].min_confidence


@settings(max_examples=400, deadline=None)
@given(conflicts())
def test_an_escalation_reason_is_given_exactly_when_nothing_decided(case: dict[str, Any]) -> None:
    ctx, outcome = _run(case)

    assert (outcome.escalation_reason is None) == outcome.decided
    tried = [a.rung for a in outcome.attempts]
    assert all(rung in TIER_ONE_RUNGS for rung in tried)
    assert tried == [s for s in ctx.classification.strategy_chain if s in tried]
    assert not any(a.decided for a in outcome.attempts[:-1])
    if outcome.decided:
        assert outcome.rung == tried[-1]
        assert outcome.next_step is None
    if ctx.classification.severity is Severity.CRITICAL:
        assert set(tried) <= {"source_verification"}
        assert not outcome.decided or outcome.rung == "source_verification"
