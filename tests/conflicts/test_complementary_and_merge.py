from __future__ import annotations

import pytest

from accord.conflicts import detect, merge_complementary
from accord.errors import ValidationError

from ._builders import pos


def test_structured_outputs_with_disjoint_fields_are_complementary() -> None:
    detection = detect(
        [pos("a", {"invoice": {"total": 1200}}), pos("b", {"invoice": {"currency": "EUR"}})]
    )
    assert not detection.has_conflict
    assert detection.complementary
    assert detection.kind is None
    assert detection.groups[0].answer == {"invoice": {"total": 1200, "currency": "EUR"}}
    assert detection.groups[0].agents == ("a", "b")
    assert "disjoint fields" in detection.description


def test_positions_with_disjoint_task_subsets_are_complementary_whatever_they_answer() -> None:
    detection = detect([pos("a", 5, task_subset=["q1"]), pos("b", 70, task_subset=["q2", "q3"])])
    assert not detection.has_conflict
    assert detection.complementary
    assert "task subsets" in detection.description


def test_structured_positions_with_disjoint_task_subsets_are_merged() -> None:
    detection = detect(
        [
            pos("a", {"total": 100}, task_subset=["totals"], confidence=0.9),
            pos("b", {"total": 200}, task_subset=["shipping"]),
        ]
    )
    assert detection.complementary
    assert detection.groups[0].answer == {"total": 100}


@pytest.mark.parametrize(
    "subsets",
    [(["q1"], ["q1", "q2"]), (["q1"], []), ([], [])],
)
def test_overlapping_or_missing_task_subsets_are_not_complementary(
    subsets: tuple[list[str], list[str]],
) -> None:
    first, second = subsets
    detection = detect([pos("a", 5, task_subset=first), pos("b", 70, task_subset=second)])
    assert detection.has_conflict
    assert not detection.complementary


def test_a_single_structured_position_is_not_complementary() -> None:
    detection = detect([pos("a", {"x": 1})])
    assert not detection.complementary
    assert not detection.has_conflict


def test_empty_structured_outputs_agree_without_being_complementary() -> None:
    detection = detect([pos("a", {}), pos("b", {})])
    assert not detection.has_conflict
    assert not detection.complementary


def test_merge_takes_each_field_from_the_agent_most_confident_on_it() -> None:
    result = merge_complementary(
        [
            pos("a", {"total": 100, "currency": "EUR"}, field_confidence={"total": 0.9}),
            pos("b", {"total": 120, "currency": "USD"}, confidence=0.7),
        ]
    )
    assert result.output == {"total": 100, "currency": "USD"}
    assert result.provenance == {"total": "a", "currency": "b"}
    assert result.conflicts_resolved == ("total", "currency")


def test_merge_rebuilds_nested_output_and_records_provenance_per_leaf() -> None:
    result = merge_complementary(
        [
            pos("a", {"invoice": {"total": 1200}, "notes": ["checked"]}),
            pos("b", {"invoice": {"currency": "EUR", "lines": {"count": 3}}}),
        ]
    )
    assert result.output == {
        "invoice": {"total": 1200, "currency": "EUR", "lines": {"count": 3}},
        "notes": ["checked"],
    }
    assert result.provenance == {
        "invoice.total": "a",
        "notes": "a",
        "invoice.currency": "b",
        "invoice.lines.count": "b",
    }
    assert result.conflicts_resolved == ()


def test_merge_breaks_confidence_ties_for_the_earlier_position() -> None:
    result = merge_complementary([pos("a", {"x": 1}), pos("b", {"x": 2})])
    assert result.output == {"x": 1}
    assert result.provenance == {"x": "a"}
    result = merge_complementary(
        [pos("a", {"x": 1}, confidence=0.6), pos("b", {"x": 2}, field_confidence={"x": 0.6})]
    )
    assert result.provenance == {"x": "a"}


def test_a_stated_confidence_beats_the_neutral_default() -> None:
    result = merge_complementary([pos("a", {"x": 1}), pos("b", {"x": 2}, confidence=0.51)])
    assert result.provenance == {"x": "b"}


def test_field_confidence_of_a_parent_path_covers_its_children() -> None:
    result = merge_complementary(
        [
            pos("a", {"address": {"city": "Paris"}}, field_confidence={"address": 0.9}),
            pos("b", {"address": {"city": "Lyon"}}, confidence=0.8),
        ]
    )
    assert result.provenance == {"address.city": "a"}


def test_merge_of_overlapping_agreeing_fields_resolves_nothing() -> None:
    result = merge_complementary([pos("a", {"x": 1, "y": 2}), pos("b", {"y": 2, "z": 3})])
    assert result.output == {"x": 1, "y": 2, "z": 3}
    assert result.conflicts_resolved == ()


def test_the_more_confident_agent_decides_whether_a_field_is_nested() -> None:
    plain_wins = merge_complementary(
        [pos("a", {"address": "Paris"}, confidence=0.9), pos("b", {"address": {"city": "Lyon"}})]
    )
    assert plain_wins.output == {"address": "Paris"}
    assert plain_wins.provenance == {"address": "a"}
    assert plain_wins.conflicts_resolved == ("address",)
    nested_wins = merge_complementary(
        [pos("a", {"address": "Paris"}), pos("b", {"address": {"city": "Lyon"}}, confidence=0.9)]
    )
    assert nested_wins.output == {"address": {"city": "Lyon"}}
    assert nested_wins.provenance == {"address.city": "b"}


def test_the_merged_output_is_a_copy() -> None:
    first = pos("a", {"rows": [1, 2]})
    result = merge_complementary([first])
    result.output["rows"].append(3)  # type: ignore[union-attr]
    assert first.output == {"rows": [1, 2]}


def test_only_structured_outputs_can_be_merged() -> None:
    with pytest.raises(ValidationError) as caught:
        merge_complementary([pos("a", 1), pos("b", 2)])
    assert caught.value.code == "conflicts.not_structured"


def test_merge_validates_its_positions() -> None:
    with pytest.raises(ValidationError) as caught:
        merge_complementary([pos("a", {"x": 1}), pos("b", 2)])
    assert caught.value.code == "conflicts.mixed_output_types"


def test_labels_from_disjoint_task_subsets_merge_into_one_answer_per_subset() -> None:
    result = merge_complementary(
        [pos("a", "approve", task_subset=["part1"]), pos("b", "deny", task_subset=["p2", "p3"])]
    )
    assert result.output == {"part1": "approve", "p2": "deny", "p3": "deny"}
    assert result.provenance == {"part1": "a", "p2": "b", "p3": "b"}
