from __future__ import annotations

from typing import Any

import pytest

from accord.conflicts import Evidence, OutputKind, Position, output_kind, validate_positions
from accord.errors import ValidationError

from ._builders import pos


def test_a_position_keeps_its_case_for_the_agent() -> None:
    evidence = Evidence.of("receipt", {"total": 1200})
    position = Position(
        agent="agent:billing",
        output={"total": 1200},
        confidence=0.9,
        field_confidence={"total": 0.95},
        evidence=[evidence, {"kind": "note", "content": "checked"}],
        sources=["erp"],
        assumptions=["prices exclude VAT"],
        reasoning="summed the lines",
        task_subset=["totals"],
    )
    assert position.evidence[0] is evidence
    assert position.evidence[1].content == "checked"
    assert position.sources == ("erp",)
    assert position.task_subset == ("totals",)
    assert position.confidence == 0.9


def test_structured_outputs_are_copied_into_plain_dicts_and_lists() -> None:
    output: dict[str, Any] = {"lines": (1, 2), "nested": {"a": 1}}
    position = pos("a", output)
    output["nested"]["a"] = 2
    assert position.output == {"lines": [1, 2], "nested": {"a": 1}}


def test_an_integer_confidence_is_read_as_a_float() -> None:
    assert pos("a", 1, confidence=1).confidence == 1.0


def test_validating_a_position_returns_it_unchanged() -> None:
    position = pos("a", 1)
    assert Position.model_validate(position) is position


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({"output": float("nan")}, "conflicts.non_finite", "output"),
        ({"output": float("-inf")}, "conflicts.non_finite", "output"),
        ({"output": {"a": {"b": [1, float("nan")]}}}, "conflicts.non_finite", "output.a.b[1]"),
        ({"output": 1, "confidence": float("nan")}, "conflicts.non_finite", "confidence"),
        ({"output": 1, "confidence": 1.01}, "conflicts.confidence_range", "confidence"),
        ({"output": 1, "confidence": -0.1}, "conflicts.confidence_range", "confidence"),
        ({"output": 1, "confidence": "high"}, "conflicts.invalid_confidence", "confidence"),
        ({"output": 1, "confidence": True}, "conflicts.invalid_confidence", "confidence"),
        (
            {"output": 1, "field_confidence": {"total": 2}},
            "conflicts.confidence_range",
            "field_confidence['total']",
        ),
        (
            {"output": 1, "field_confidence": {"a..b": 0.5}},
            "conflicts.invalid_field_name",
            "field_confidence['a..b']",
        ),
        (
            {"output": 1, "field_confidence": [0.5]},
            "conflicts.invalid_confidence",
            "field_confidence",
        ),
        ({"output": {"a.b": 1}}, "conflicts.invalid_field_name", "output.a.b"),
        ({"output": {"": 1}}, "conflicts.invalid_field_name", "output."),
        ({"output": None}, "conflicts.invalid_output", "output"),
        ({"output": [1, 2]}, "conflicts.invalid_output", "output"),
        ({"output": {"a": object()}}, "conflicts.invalid_value_type", "output.a"),
        ({"output": 1, "sources": "erp"}, "conflicts.invalid_strings", "sources"),
        ({"output": 1, "assumptions": [1]}, "conflicts.invalid_strings", "assumptions[0]"),
        ({"output": 1, "task_subset": ["a", ""]}, "conflicts.invalid_strings", "task_subset[1]"),
        ({"output": 1, "reasoning": 3}, "conflicts.invalid_reasoning", "reasoning"),
        ({"output": 1, "evidence": "x"}, "conflicts.invalid_evidence", "evidence"),
        (
            {"output": 1, "evidence": [{"kind": ""}]},
            "conflicts.invalid_evidence",
            "evidence[0].kind",
        ),
        ({"output": 1, "colour": "red"}, "conflicts.unknown_field", "colour"),
        ({}, "conflicts.missing_field", "output"),
    ],
)
def test_a_broken_rule_is_reported_naming_the_agent_and_the_field_path(
    fields: dict[str, Any], code: str, field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        Position(agent="agent:x", **fields)
    assert caught.value.code == code
    assert caught.value.context["field"] == field
    assert caught.value.context["position"] == "agent:x"
    assert caught.value.context["rule"]


@pytest.mark.parametrize("agent", ["", "   ", 7])
def test_the_agent_must_be_a_non_empty_string(agent: object) -> None:
    with pytest.raises(ValidationError) as caught:
        Position(agent=agent, output=1)
    assert caught.value.code == "conflicts.invalid_agent"
    assert caught.value.context["field"] == "agent"


def test_a_position_needs_an_agent() -> None:
    with pytest.raises(ValidationError) as caught:
        Position.model_validate({"output": 1})
    assert caught.value.code == "conflicts.missing_field"


def test_a_position_is_given_as_a_mapping() -> None:
    with pytest.raises(ValidationError) as caught:
        Position.model_validate([("agent", "a")])
    assert caught.value.code == "conflicts.invalid_position"


def test_a_position_is_frozen() -> None:
    with pytest.raises(Exception, match="frozen"):
        pos("a", 1).output = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("output", "kind"),
    [
        (True, OutputKind.BOOLEAN),
        (False, OutputKind.BOOLEAN),
        (0, OutputKind.NUMBER),
        (2.5, OutputKind.NUMBER),
        ("approve", OutputKind.LABEL),
        ("needs more review", OutputKind.LABEL),
        ("approve\n", OutputKind.LABEL),
        ("", OutputKind.LABEL),
        ("x" * 64, OutputKind.LABEL),
        ("x" * 65, OutputKind.TEXT),
        ("two  spaces", OutputKind.TEXT),
        ("line one\nline two", OutputKind.TEXT),
        ("tab\tseparated", OutputKind.TEXT),
        ({"a": 1}, OutputKind.STRUCTURED),
    ],
)
def test_output_kind_tells_how_an_output_is_compared(output: object, kind: OutputKind) -> None:
    assert output_kind(pos("a", output)) is kind


def test_a_bool_is_boolean_and_never_a_number() -> None:
    assert output_kind(pos("a", True)) is OutputKind.BOOLEAN


def test_a_long_string_listed_in_label_values_is_a_label() -> None:
    long_label = "Escalate To The Finance Committee  For Review " + "x" * 30
    assert output_kind(pos("a", long_label)) is OutputKind.TEXT
    assert output_kind(pos("a", long_label), frozenset({long_label.lower()})) is OutputKind.LABEL


def test_validate_positions_keeps_the_order_it_was_given() -> None:
    given = [pos("b", 2), pos("a", 1), pos("c", 3)]
    assert validate_positions(given) == tuple(given)


def test_validate_positions_refuses_an_empty_list() -> None:
    with pytest.raises(ValidationError) as caught:
        validate_positions([])
    assert caught.value.code == "conflicts.no_positions"


def test_validate_positions_refuses_something_that_is_not_a_position() -> None:
    with pytest.raises(ValidationError) as caught:
        validate_positions([pos("a", 1), {"agent": "b", "output": 2}])  # type: ignore[list-item]
    assert caught.value.code == "conflicts.invalid_position"
    assert caught.value.context["position"] == 1


def test_an_agent_taking_two_positions_is_refused_naming_both_indexes() -> None:
    with pytest.raises(ValidationError) as caught:
        validate_positions([pos("a", 1), pos("b", 1), pos("a", 2)])
    error = caught.value
    assert error.code == "conflicts.duplicate_agent"
    assert error.context["agent"] == "a"
    assert error.context["first_index"] == 0
    assert error.context["position"] == 2


@pytest.mark.parametrize(
    ("first", "second", "expected", "found"),
    [
        (1, True, OutputKind.NUMBER, OutputKind.BOOLEAN),
        (True, 1, OutputKind.BOOLEAN, OutputKind.NUMBER),
        ("yes", 1.5, OutputKind.LABEL, OutputKind.NUMBER),
        ({"a": 1}, "a long free text answer\nwith lines", OutputKind.STRUCTURED, OutputKind.TEXT),
    ],
)
def test_outputs_of_different_kinds_are_refused_naming_index_agent_and_both_kinds(
    first: object, second: object, expected: OutputKind, found: OutputKind
) -> None:
    with pytest.raises(ValidationError) as caught:
        validate_positions([pos("a", first), pos("b", second)])
    error = caught.value
    assert error.code == "conflicts.mixed_output_types"
    assert error.context["position"] == 1
    assert error.context["agent"] == "b"
    assert (error.context["expected_kind"], error.context["found_kind"]) == (expected, found)


def test_labels_and_texts_are_one_family_and_may_be_mixed() -> None:
    mixed = [pos("a", "approve"), pos("b", "I would approve this, on balance.\nSee notes.")]
    assert len(validate_positions(mixed)) == 2


def test_integers_and_floats_are_one_family() -> None:
    assert len(validate_positions([pos("a", 1), pos("b", 1.5)])) == 2
