"""Rung 1: a registered source of truth settles the conflict, or says why it cannot."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.conflicts import DetectionSettings, NumericThresholds, Position
from accord.errors import ValidationError
from accord.ladder import SourceFinding, VerifierRegistry
from accord.ladder.source_verification import source_verification

from ._builders import SUBJECT, TASK, FixedVerifier, context, pos, registry, source_says

TOLERANCE = 0.10


def numbers(*values: float) -> list[Position]:
    return [pos(f"a{i}", value) for i, value in enumerate(values)]


def test_without_a_registered_verifier_the_rung_declines_and_names_the_task_type() -> None:
    attempt = source_verification(context(numbers(100, 200)), registry(), tolerance=TOLERANCE)

    assert not attempt.decided
    assert attempt.rung == "source_verification"
    assert attempt.group is None
    assert attempt.detail == f"no verifier registered for task type {TASK!r}"


def test_a_verifier_that_has_no_answer_makes_the_rung_decline() -> None:
    verifiers = registry(FixedVerifier(None))

    attempt = source_verification(context(numbers(100, 200)), verifiers, tolerance=TOLERANCE)

    assert not attempt.decided
    assert attempt.detail == "the source had no answer"


def test_the_verifier_is_asked_about_the_subject_task_type_and_each_groups_answer() -> None:
    verifier = source_says(100)
    ctx = context([pos("a", 200), pos("b", 100), pos("c", 200)])

    source_verification(ctx, registry(verifier), tolerance=TOLERANCE)

    assert verifier.calls == [(SUBJECT, TASK, (200, 100))]


def test_a_confirmed_answer_decides_for_its_group_with_full_confidence() -> None:
    ctx = context([pos("a", 200), pos("b", 100), pos("c", 200)])

    attempt = source_verification(ctx, registry(source_says(100, "ledger-db")), tolerance=0.1)

    assert attempt.decided
    assert attempt.group == 1
    assert ctx.detection.groups[1].agents == ("b",)
    assert attempt.confidence == 1.0
    assert attempt.detail == "confirmed by ledger-db"


def test_an_answer_no_position_gave_decides_nothing() -> None:
    attempt = source_verification(
        context(numbers(100, 200)), registry(source_says(150)), tolerance=TOLERANCE
    )

    assert not attempt.decided
    assert attempt.detail == "no position matches the source (erp)"


def test_an_answer_within_tolerance_of_several_groups_decides_nothing() -> None:
    # 100 and 120 are in conflict (16.7 %), but 110 is within 10 % of both.
    attempt = source_verification(
        context(numbers(100, 120)), registry(source_says(110)), tolerance=TOLERANCE
    )

    assert not attempt.decided
    assert attempt.detail == "several positions match the source (erp)"


def test_when_several_answers_are_within_tolerance_the_one_closest_to_the_source_wins() -> None:
    # A task may treat a 4 % gap as a conflict while the source check allows 10 %.
    tight = DetectionSettings(numeric=NumericThresholds(conflict_gap=0.01, major_gap=0.3))
    ctx = context(numbers(1250, 1200), detection=tight)
    attempt = source_verification(ctx, registry(source_says(1200)), tolerance=TOLERANCE)

    assert attempt.decided
    assert attempt.group is not None
    assert ctx.detection.groups[attempt.group].answer == 1200


def test_numbers_match_the_source_within_the_relative_tolerance() -> None:
    ctx = context(numbers(100, 150))

    close = source_verification(ctx, registry(source_says(104)), tolerance=TOLERANCE)
    strict = source_verification(ctx, registry(source_says(104)), tolerance=0.0)

    assert close.decided
    assert close.group == 0
    assert not strict.decided


@pytest.mark.parametrize(("truth", "answer"), [(1.1, 0.99), (0.3, 0.27), (100, 90)])
def test_a_gap_of_exactly_the_tolerance_still_matches_despite_float_rounding(
    truth: float, answer: float
) -> None:
    ctx = context(numbers(answer, answer * 10))

    attempt = source_verification(ctx, registry(source_says(truth)), tolerance=TOLERANCE)

    assert attempt.decided
    assert ctx.detection.groups[attempt.group or 0].answer == answer


def test_zero_matches_zero() -> None:
    attempt = source_verification(
        context(numbers(0, 50)), registry(source_says(0)), tolerance=TOLERANCE
    )

    assert attempt.decided
    assert attempt.group == 0


def test_texts_match_the_source_after_normalization() -> None:
    ctx = context([pos("a", "reject"), pos("b", "approve")])

    attempt = source_verification(ctx, registry(source_says("  APPROVE. ")), tolerance=TOLERANCE)

    assert attempt.decided
    assert ctx.detection.groups[attempt.group or 0].answer == "approve"


def test_booleans_match_only_booleans() -> None:
    ctx = context([pos("a", True), pos("b", False)])

    by_bool = source_verification(ctx, registry(source_says(False)), tolerance=TOLERANCE)
    by_int = source_verification(ctx, registry(source_says(0)), tolerance=TOLERANCE)

    assert by_bool.decided
    assert ctx.detection.groups[by_bool.group or 0].answer is False
    assert not by_int.decided


def test_structured_answers_match_the_source_exactly() -> None:
    ctx = context([pos("a", {"total": 100, "currency": "EUR"}), pos("b", {"total": 300})])

    exact = source_verification(
        ctx, registry(source_says({"currency": "EUR", "total": 100})), tolerance=TOLERANCE
    )
    other = source_verification(ctx, registry(source_says({"total": 101})), tolerance=TOLERANCE)

    assert exact.decided
    assert exact.group == 0
    assert not other.decided


def test_the_wildcard_verifier_serves_every_task_type() -> None:
    ctx = context(numbers(100, 200), task_type="anything.at.all")

    attempt = source_verification(ctx, registry(source_says(200), "*"), tolerance=TOLERANCE)

    assert attempt.decided
    assert attempt.group == 1


def test_a_task_types_own_verifier_wins_over_the_wildcard() -> None:
    verifiers = VerifierRegistry()
    wildcard, own = source_says(100, "wildcard"), source_says(200, "own")
    verifiers.register("*", wildcard)
    verifiers.register(TASK, own)

    attempt = source_verification(context(numbers(100, 200)), verifiers, tolerance=TOLERANCE)

    assert attempt.detail == "confirmed by own"
    assert wildcard.calls == []


def test_a_falsy_verifier_is_still_the_task_types_own_verifier() -> None:
    @dataclass
    class EmptyLookingVerifier(FixedVerifier):
        def __len__(self) -> int:
            return 0

    verifiers = VerifierRegistry()
    own = EmptyLookingVerifier(SourceFinding(answer=200, source="own"))
    verifiers.register("*", source_says(100, "wildcard"))
    verifiers.register(TASK, own)

    assert verifiers.for_task(TASK) is own


def test_registering_a_verifier_again_replaces_it() -> None:
    verifiers = registry(source_says(100, "first"))
    second = source_says(100, "second")
    verifiers.register(TASK, second)

    assert verifiers.for_task(TASK) is second


def test_a_registry_without_a_wildcard_has_nothing_for_other_task_types() -> None:
    assert registry(source_says(1)).for_task("other") is None


def test_a_verifier_needs_a_task_type() -> None:
    with pytest.raises(ValidationError) as caught:
        VerifierRegistry().register("", source_says(1))

    assert caught.value.code == "settle.bad_verifier"
    assert caught.value.context["field"] == "task_type"


@pytest.mark.parametrize("verifier", [object(), "lookup", type("NoCall", (), {"lookup": 3})()])
def test_a_verifier_needs_a_callable_lookup(verifier: object) -> None:
    with pytest.raises(ValidationError) as caught:
        VerifierRegistry().register(TASK, verifier)  # type: ignore[arg-type]

    assert caught.value.code == "settle.bad_verifier"
    assert caught.value.context["field"] == "verifier"


@settings(max_examples=200, deadline=None)
@given(
    low=st.integers(1, 10**6),
    factor=st.floats(1.5, 100.0),
    pick=st.booleans(),
)
def test_the_source_confirming_one_of_two_distant_answers_always_picks_that_answer(
    low: int, factor: float, pick: bool
) -> None:
    high = round(low * factor) + 1
    ctx = context(numbers(low, high))
    truth = high if pick else low

    attempt = source_verification(ctx, registry(source_says(truth)), tolerance=TOLERANCE)

    assert attempt.decided
    assert ctx.detection.groups[attempt.group or 0].answer == truth
