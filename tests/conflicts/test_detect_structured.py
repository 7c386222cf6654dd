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

from ._builders import membership, pos


def test_identical_structured_outputs_agree() -> None:
    output = {"invoice": {"total": 1200, "currency": "EUR"}, "paid": False}
    detection = detect([pos("a", output), pos("b", output)])
    assert not detection.has_conflict
    assert detection.output_kind is OutputKind.STRUCTURED
    assert detection.groups[0].answer == output
    assert detection.field_conflicts == ()


def test_each_diverging_field_is_a_field_conflict_named_by_its_dotted_path() -> None:
    detection = detect(
        [
            pos("a", {"invoice": {"total": 1200, "currency": "EUR"}, "paid": False}),
            pos("b", {"invoice": {"total": 1350, "currency": "USD"}, "paid": False}),
        ]
    )
    assert detection.has_conflict
    paths = [conflict.path for conflict in detection.field_conflicts]
    assert paths == ["invoice.currency", "invoice.total"]
    currency, total = detection.field_conflicts
    assert (currency.kind, currency.severity) == (
        ConflictKind.DIRECT_CONTRADICTION,
        Severity.MEDIUM,
    )
    assert (total.kind, total.severity) == (ConflictKind.NUMERICAL_INCONSISTENCY, Severity.MEDIUM)
    assert total.gap == pytest.approx(150 / 1350)
    assert [group.answer for group in total.groups] == [1200, 1350]
    assert detection.max_gap == pytest.approx(150 / 1350)
    assert "2 fields disagree" in detection.description


def test_the_overall_conflict_is_the_most_severe_field_conflict() -> None:
    detection = detect(
        [
            pos("a", {"approved": True, "total": 100, "note": "ok"}),
            pos("b", {"approved": False, "total": 200, "note": "ok"}),
        ]
    )
    assert detection.kind is ConflictKind.DIRECT_CONTRADICTION
    assert detection.severity is Severity.CRITICAL


def test_equally_severe_field_conflicts_resolve_to_the_first_in_path_order() -> None:
    detection = detect(
        [
            pos("a", {"b_total": 100, "a_label": "invoice"}),
            pos("b", {"b_total": 115, "a_label": "receipt"}),
        ]
    )
    assert [conflict.path for conflict in detection.field_conflicts] == ["a_label", "b_total"]
    assert detection.kind is ConflictKind.DIRECT_CONTRADICTION
    assert detection.severity is Severity.MEDIUM


def test_per_field_thresholds_apply_to_their_field() -> None:
    settings = DetectionSettings(
        per_field={"invoice.total": NumericThresholds(conflict_gap=0.0, major_gap=0.01)}
    )
    outputs = [{"invoice": {"total": 100, "lines": 10}}, {"invoice": {"total": 102, "lines": 10.2}}]
    detection = detect([pos("a", outputs[0]), pos("b", outputs[1])], settings)
    assert [conflict.path for conflict in detection.field_conflicts] == ["invoice.total"]
    assert detection.severity is Severity.HIGH


def test_reordered_lists_are_a_priority_conflict() -> None:
    detection = detect(
        [pos("a", {"order": ["fix", "test", "ship"]}), pos("b", {"order": ["test", "fix", "ship"]})]
    )
    assert detection.kind is ConflictKind.PRIORITY_CONFLICT
    assert detection.severity is Severity.MEDIUM


def test_lists_with_different_elements_are_a_direct_contradiction() -> None:
    detection = detect([pos("a", {"tags": ["x", "y"]}), pos("b", {"tags": ["x", "z"]})])
    assert detection.kind is ConflictKind.DIRECT_CONTRADICTION


def test_lists_repeating_an_element_a_different_number_of_times_are_not_reorderings() -> None:
    detection = detect([pos("a", {"q": ["x", "x", "y"]}), pos("b", {"q": ["x", "y", "y"]})])
    assert detection.kind is ConflictKind.DIRECT_CONTRADICTION


def test_equal_lists_agree_even_when_they_hold_mappings() -> None:
    rows = [{"sku": "A", "qty": 1}, {"sku": "B", "qty": 2}]
    assert not detect([pos("a", {"rows": rows}), pos("b", {"rows": list(rows)})]).has_conflict


def test_a_field_only_some_agents_give_is_not_a_conflict_when_they_agree() -> None:
    detection = detect(
        [
            pos("a", {"total": 100, "currency": "EUR"}),
            pos("b", {"total": 100}),
            pos("c", {"total": 100, "currency": "eur", "vat": 20}),
        ]
    )
    assert not detection.has_conflict
    assert detection.complementary  # combining them is a merge, recorded with provenance
    assert "agree where their fields overlap" in detection.description
    assert detection.groups[0].answer == {"total": 100, "currency": "EUR", "vat": 20}


def test_identical_structured_outputs_are_plain_agreement_not_a_merge() -> None:
    detection = detect([pos("a", {"total": 100, "vat": 20}), pos("b", {"vat": 20, "total": 100})])
    assert not detection.has_conflict
    assert not detection.complementary


def test_values_of_different_kinds_in_a_field_are_a_direct_contradiction() -> None:
    detection = detect([pos("a", {"total": 100}), pos("b", {"total": "100"})])
    assert detection.kind is ConflictKind.DIRECT_CONTRADICTION
    assert detection.severity is Severity.MEDIUM


def test_true_and_one_are_different_answers() -> None:
    assert detect([pos("a", {"x": True}), pos("b", {"x": 1})]).has_conflict


def test_a_plain_value_against_nested_fields_at_the_same_path_conflicts() -> None:
    detection = detect([pos("a", {"address": "Paris"}), pos("b", {"address": {"city": "Paris"}})])
    assert [conflict.path for conflict in detection.field_conflicts] == ["address"]
    assert detection.field_conflicts[0].kind is ConflictKind.DIRECT_CONTRADICTION


def test_null_and_empty_mappings_are_leaf_values() -> None:
    assert detect([pos("a", {"x": None}), pos("b", {"x": {}})]).has_conflict
    assert not detect([pos("a", {"x": {}}), pos("b", {"x": {}})]).has_conflict


def test_agents_group_by_the_side_they_take_on_every_conflicting_field() -> None:
    detection = detect(
        [
            pos("a", {"total": 100, "approved": True}),
            pos("b", {"total": 150, "approved": True}),
            pos("c", {"total": 100, "approved": True}),
            pos("d", {"total": 100, "approved": False}),
            pos("e", {"approved": True}),
        ]
    )
    assert [group.agents for group in detection.groups] == [
        ("a", "c"),
        ("b",),
        ("d",),
        ("e",),
    ]
    assert detection.majority is not None
    assert detection.majority.answer == {"total": 100, "approved": True}
    assert detection.severity is Severity.CRITICAL
    approved = next(c for c in detection.field_conflicts if c.path == "approved")
    assert membership(approved.groups) == {frozenset("abce"), frozenset("d")}


def test_numeric_fields_without_a_conflict_still_report_their_gap() -> None:
    detection = detect([pos("a", {"t": 100, "u": 1}), pos("b", {"t": 95, "u": 1})])
    assert not detection.has_conflict
    assert detection.max_gap == pytest.approx(0.05)
