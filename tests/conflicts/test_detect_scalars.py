from __future__ import annotations

import pytest

from accord.conflicts import (
    ConflictKind,
    DetectionSettings,
    NumericThresholds,
    OutputKind,
    Severity,
    detect,
)
from accord.conflicts._gap import relative_gap
from accord.errors import ValidationError

from ._builders import membership, pos, positions


def test_a_single_position_is_not_a_conflict() -> None:
    detection = detect([pos("agent:a", 1200)])
    assert not detection.has_conflict
    assert not detection.complementary
    assert detection.kind is None
    assert detection.severity is None
    assert detection.majority is not None
    assert detection.majority.agents == ("agent:a",)
    assert "single position" in detection.description


def test_detect_validates_its_positions() -> None:
    with pytest.raises(ValidationError) as caught:
        detect([pos("a", 1), pos("a", 2)])
    assert caught.value.code == "conflicts.duplicate_agent"


def test_true_against_false_is_a_critical_direct_contradiction() -> None:
    detection = detect([pos("a", True), pos("b", False)])
    assert detection.has_conflict
    assert detection.output_kind is OutputKind.BOOLEAN
    assert detection.kind is ConflictKind.DIRECT_CONTRADICTION
    assert detection.severity is Severity.CRITICAL
    assert detection.majority is None
    assert detection.max_gap is None


def test_agreeing_booleans_are_not_a_conflict() -> None:
    detection = detect(positions(True, True, True))
    assert not detection.has_conflict
    assert detection.groups[0].answer is True
    assert detection.groups[0].agents == ("a0", "a1", "a2")
    assert "agree" in detection.description


def test_even_a_lone_boolean_dissent_is_critical() -> None:
    detection = detect(positions(True, True, True, True, False))
    assert detection.severity is Severity.CRITICAL
    assert detection.majority is not None
    assert detection.majority.answer is True


@pytest.mark.parametrize(
    ("a", "b", "severity"),
    [
        (90, 100, None),  # exactly 10 %: no conflict
        (0.09, 0.1, None),  # exactly 10 % although binary floats round the other way
        (89.99, 100, Severity.MEDIUM),  # 10.01 %
        (70, 100, Severity.MEDIUM),  # exactly 30 %: still minor
        (69.99, 100, Severity.HIGH),  # 30.01 %
        (100, 100, None),
        (-90, -100, None),
        (-89.99, -100, Severity.MEDIUM),
        (-1, 1, Severity.HIGH),  # opposite signs: gap 200 %
    ],
)
def test_numbers_conflict_by_their_relative_gap(
    a: float, b: float, severity: Severity | None
) -> None:
    detection = detect([pos("a", a), pos("b", b)])
    assert detection.output_kind is OutputKind.NUMBER
    assert detection.severity is severity
    assert detection.has_conflict is (severity is not None)
    if severity is not None:
        assert detection.kind is ConflictKind.NUMERICAL_INCONSISTENCY


def test_the_gap_is_taken_relative_to_the_larger_magnitude() -> None:
    detection = detect([pos("a", 1200), pos("b", 1450)])
    assert detection.max_gap == pytest.approx(250 / 1450)
    assert detection.severity is Severity.MEDIUM
    assert "17.24%" in detection.description


def test_the_gap_is_reported_even_without_a_conflict() -> None:
    assert detect([pos("a", 95), pos("b", 100)]).max_gap == pytest.approx(0.05)


def test_values_within_the_tolerance_agree_as_one_group() -> None:
    detection = detect(positions(100, 105, 109))
    assert not detection.has_conflict
    assert len(detection.groups) == 1
    assert detection.groups[0].agents == ("a0", "a1", "a2")
    assert detection.groups[0].answer == 100


@pytest.mark.parametrize(
    ("a", "b", "conflict"),
    [
        (0, 0, False),
        (0, 1e-12, False),
        (-4e-10, 5e-10, False),
        (0.0, -0.0, False),
        (0, 1e-3, True),
        (0, 2e-9, True),
    ],
)
def test_values_near_zero_are_compared_absolutely(a: float, b: float, conflict: bool) -> None:
    assert detect([pos("a", a), pos("b", b)]).has_conflict is conflict


def test_absolute_tolerance_is_configurable() -> None:
    settings = DetectionSettings(numeric=NumericThresholds(absolute_tolerance=0.01))
    assert not detect([pos("a", 0), pos("b", 0.005)], settings).has_conflict
    assert detect([pos("a", 0), pos("b", 0.02)], settings).severity is Severity.HIGH


def test_thresholds_are_configurable() -> None:
    settings = DetectionSettings(numeric=NumericThresholds(conflict_gap=0.01, major_gap=0.02))
    assert detect([pos("a", 97), pos("b", 100)], settings).severity is Severity.HIGH
    assert detect([pos("a", 98.5), pos("b", 100)], settings).severity is Severity.MEDIUM


def test_n_agents_split_into_a_majority_and_a_minority_cluster() -> None:
    detection = detect(positions(1200, 1450, 1210, 1205, 1460))
    assert [group.agents for group in detection.groups] == [("a0", "a2", "a3"), ("a1", "a4")]
    assert detection.majority is detection.groups[0]
    assert detection.groups[0].answer == 1200
    assert detection.severity is Severity.MEDIUM
    assert detection.max_gap == pytest.approx((1460 - 1200) / 1460)


def test_equal_sized_groups_leave_no_majority_and_keep_first_appearance_order() -> None:
    detection = detect(positions(200, 100, 100, 200))
    assert [group.answer for group in detection.groups] == [200, 100]
    assert detection.majority is None


def test_clusters_hold_values_pairwise_within_the_conflict_gap() -> None:
    detection = detect(positions(100, 108, 116, 125))
    for group in detection.groups:
        values = [{"a0": 100, "a1": 108, "a2": 116, "a3": 125}[agent] for agent in group.agents]
        assert (max(values) - min(values)) / max(values) <= 0.1
    assert membership(detection.groups) == {frozenset({"a0", "a1"}), frozenset({"a2", "a3"})}


def test_integers_and_floats_compare_as_numbers() -> None:
    assert not detect([pos("a", 3), pos("b", 3.0)]).has_conflict


def test_the_gap_between_opposite_numbers_at_the_float_limit_is_finite_and_two() -> None:
    # a − b overflows to infinity here; the gap (and the signed basis points) must not
    assert relative_gap(1.7976931348623157e308, -1.7976931348623157e308, 0.0) == 2.0
    assert relative_gap(-1e308, 1e308, 0.0) == 2.0
