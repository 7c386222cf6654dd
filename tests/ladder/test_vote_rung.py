"""Rung 4: a strict majority decides, each agent weighted by its learned reliability."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from accord.ladder.vote_rung import vote_rung

from ._builders import context, pos


def test_an_unweighted_majority_decides_with_its_share_of_the_votes() -> None:
    ctx = context([pos("a", 100), pos("b", 200), pos("c", 100)])

    attempt = vote_rung(ctx)

    assert attempt.decided
    assert attempt.rung == "vote"
    assert ctx.detection.groups[attempt.group or 0].agents == ("a", "c")
    assert attempt.confidence == pytest.approx(2 / 3)
    assert attempt.detail == "unweighted majority with 67% of the weight"


def test_reliability_weights_can_outvote_a_headcount_majority() -> None:
    ctx = context([pos("a", 100), pos("b", 200), pos("c", 100)], weights={"b": 5.0})

    attempt = vote_rung(ctx)

    assert attempt.decided
    assert ctx.detection.groups[attempt.group or 0].agents == ("b",)
    assert attempt.confidence == pytest.approx(5 / 7)
    assert attempt.detail == "reliability-weighted majority with 71% of the weight"


def test_agents_without_a_weight_count_as_one() -> None:
    ctx = context([pos("a", 100), pos("b", 200), pos("c", 200)], weights={"a": 1.5})

    attempt = vote_rung(ctx)

    assert attempt.decided
    assert ctx.detection.groups[attempt.group or 0].agents == ("b", "c")
    assert attempt.confidence == pytest.approx(2 / 3.5)


def test_an_exact_tie_declines() -> None:
    attempt = vote_rung(context([pos("a", 100), pos("b", 200)]))

    assert not attempt.decided
    assert attempt.group is None
    assert attempt.detail == "no weighted majority"


def test_a_weighted_tie_declines_even_against_a_headcount_majority() -> None:
    ctx = context([pos("a", 100), pos("b", 200), pos("c", 200)], weights={"a": 2.0})

    assert not vote_rung(ctx).decided


def test_when_every_weight_is_zero_nobody_has_a_majority() -> None:
    ctx = context([pos("a", 100), pos("b", 200), pos("c", 200)], weights=dict.fromkeys("abc", 0.0))

    assert not vote_rung(ctx).decided


def test_a_zero_weight_agent_loses_to_any_weighted_one() -> None:
    ctx = context([pos("a", 100), pos("b", 200), pos("c", 200)], weights={"b": 0.0, "c": 0.0})

    attempt = vote_rung(ctx)

    assert attempt.decided
    assert ctx.detection.groups[attempt.group or 0].agents == ("a",)
    assert attempt.confidence == 1.0


def test_a_negative_weight_counts_as_zero_and_takes_nothing_from_its_side() -> None:
    # Were -5 subtracted, the 100 side would lose; clipped to 0 it ties 1 against 1.
    ctx = context([pos("a", 100), pos("b", 200), pos("c", 200)], weights={"b": -5.0})

    assert not vote_rung(ctx).decided


weights = st.floats(-2.0, 10.0, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), weights), min_size=2, max_size=8))
def test_a_decided_vote_goes_to_the_heaviest_side_with_its_share_of_the_weight(
    entries: list[tuple[int, float]],
) -> None:
    assume(len({side for side, _ in entries}) > 1)
    answers = [10**side for side, _ in entries]
    agents = [f"a{i}" for i in range(len(entries))]
    ctx = context(
        [pos(a, answer) for a, answer in zip(agents, answers, strict=True)],
        weights={a: w for a, (_, w) in zip(agents, entries, strict=True)},
    )
    totals: dict[int, float] = {}
    for agent, (_, weight) in zip(agents, entries, strict=True):
        group = ctx.group_of(agent)
        assert group is not None
        totals[group] = totals.get(group, 0.0) + max(weight, 0.0)

    attempt = vote_rung(ctx)

    if attempt.decided:
        assert attempt.group is not None
        assert all(totals[attempt.group] > w for g, w in totals.items() if g != attempt.group)
        assert attempt.confidence == pytest.approx(totals[attempt.group] / sum(totals.values()))
    else:
        ranked = sorted(totals.values(), reverse=True)
        assert sum(ranked) == 0 or ranked[0] - ranked[1] <= 1e-9
