"""Rung 2: the clearly more confident side wins; a gap under the tie gap is a tie."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from accord.ladder.confidence_rung import confidence_rung

from ._builders import context, pos

TIE_GAP = 0.1


def test_a_position_without_confidence_makes_the_rung_decline() -> None:
    ctx = context([pos("a", 100, 0.9), pos("b", 200)])

    attempt = confidence_rung(ctx, tie_gap=TIE_GAP)

    assert not attempt.decided
    assert attempt.rung == "confidence"
    assert attempt.detail == "not every position declared a confidence"


def test_the_clearly_more_confident_side_wins_with_its_own_confidence() -> None:
    ctx = context([pos("a", 100, 0.55), pos("b", 200, 0.9)])

    attempt = confidence_rung(ctx, tie_gap=TIE_GAP)

    assert attempt.decided
    assert ctx.detection.groups[attempt.group or 0].agents == ("b",)
    assert attempt.confidence == 0.9
    assert attempt.detail == "confidence 0.90 against 0.55"


def test_a_gap_under_the_tie_gap_is_a_tie() -> None:
    attempt = confidence_rung(context([pos("a", 100, 0.8), pos("b", 200, 0.75)]), tie_gap=0.1)

    assert not attempt.decided
    assert attempt.detail == "tie: confidence gap 0.05 is under 0.10"


@pytest.mark.parametrize(("high", "low"), [(0.7, 0.6), (0.8, 0.7), (0.3, 0.2), (1.0, 0.9)])
def test_a_gap_of_exactly_the_tie_gap_decides_despite_float_rounding(
    high: float, low: float
) -> None:
    attempt = confidence_rung(context([pos("a", 100, low), pos("b", 200, high)]), tie_gap=0.1)

    assert attempt.decided
    assert attempt.confidence == high


def test_a_groups_confidence_is_that_of_its_most_confident_member() -> None:
    # By mean the 200 side (0.6) would lose to 0.7; by its best member (0.9) it wins.
    ctx = context([pos("a", 200, 0.3), pos("b", 200, 0.9), pos("c", 100, 0.7)])

    attempt = confidence_rung(ctx, tie_gap=TIE_GAP)

    assert attempt.decided
    assert ctx.detection.groups[attempt.group or 0].agents == ("a", "b")
    assert attempt.confidence == 0.9


def test_with_three_sides_the_top_two_decide_whether_it_is_a_tie() -> None:
    ctx = context([pos("a", 100, 0.9), pos("b", 200, 0.85), pos("c", 400, 0.1)])

    attempt = confidence_rung(ctx, tie_gap=TIE_GAP)

    assert not attempt.decided
    assert "0.05" in attempt.detail


def test_the_tie_gap_is_a_setting() -> None:
    ctx = context([pos("a", 100, 0.9), pos("b", 200, 0.7)])

    assert confidence_rung(ctx, tie_gap=0.1).decided
    assert not confidence_rung(ctx, tie_gap=0.25).decided


confidences = st.floats(0.0, 1.0, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), confidences), min_size=2, max_size=8))
def test_the_rung_decides_exactly_when_the_best_side_leads_by_the_tie_gap(
    entries: list[tuple[int, float]],
) -> None:
    assume(len({side for side, _ in entries}) > 1)
    positions = [pos(f"a{i}", 10**side, c) for i, (side, c) in enumerate(entries)]
    ctx = context(positions)
    best: dict[int, float] = {}
    for p in positions:
        group = ctx.group_of(p.agent)
        assert group is not None
        best[group] = max(best.get(group, 0.0), p.confidence or 0.0)
    top, second = sorted(best.values(), reverse=True)[:2]

    attempt = confidence_rung(ctx, tie_gap=TIE_GAP)

    if top - second >= TIE_GAP + 1e-9:
        assert attempt.decided
    if top - second < TIE_GAP - 1e-9:
        assert not attempt.decided
    if attempt.decided:
        assert best[attempt.group or 0] == top == attempt.confidence


def test_on_structured_outputs_the_confidence_on_the_disputed_field_decides() -> None:
    ctx = context(
        [
            pos("a1", {"total": 100, "note": "x"}, confidence=0.8, field_confidence={"total": 0.4}),
            pos("a2", {"total": 200, "note": "x"}, confidence=0.6, field_confidence={"total": 0.9}),
        ]
    )
    attempt = confidence_rung(ctx, tie_gap=0.1)

    assert attempt.decided
    assert attempt.group is not None
    assert ctx.detection.groups[attempt.group].agents == ("a2",)
    assert attempt.confidence == 0.9


def test_a_structured_side_without_a_stated_confidence_on_the_disputed_field_cannot_win() -> None:
    ctx = context(
        [
            pos("a1", {"total": 100}, field_confidence={"other": 0.9}),
            pos("a2", {"total": 200}, confidence=0.6),
        ]
    )
    assert not confidence_rung(ctx, tie_gap=0.1).decided
