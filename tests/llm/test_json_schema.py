from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.llm.json_schema import Violation, first_violation

INVOICE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "total": {"type": "number", "minimum": 0, "maximum": 10_000},
        "lines": {"type": "integer"},
        "paid": {"type": "boolean"},
        "note": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["urgent", "late"]}},
        "payer": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": False,
        },
        "memo": {"type": "null"},
    },
    "required": ["total"],
    "additionalProperties": False,
}


def test_a_conforming_object_has_no_violation() -> None:
    value = {
        "total": 1200.5,
        "lines": 3,
        "paid": False,
        "note": "ok",
        "tags": ["urgent"],
        "payer": {"name": "acme"},
        "memo": None,
    }
    assert first_violation(value, INVOICE) is None


@pytest.mark.parametrize(
    ("value", "path", "problem"),
    [
        ({}, "$.total", "is required but missing"),
        ({"total": "12"}, "$.total", "expected number, got string"),
        ({"total": True}, "$.total", "expected number, got boolean"),
        ({"total": -1}, "$.total", "below the minimum"),
        ({"total": 10_001}, "$.total", "above the maximum"),
        ({"total": 1, "lines": 2.5}, "$.lines", "expected integer, got number"),
        ({"total": 1, "paid": 1}, "$.paid", "expected boolean, got number"),
        ({"total": 1, "tags": "urgent"}, "$.tags", "expected array, got string"),
        ({"total": 1, "tags": ["urgent", "soon"]}, "$.tags[1]", "is not one of"),
        ({"total": 1, "payer": {}}, "$.payer.name", "is required but missing"),
        ({"total": 1, "payer": []}, "$.payer", "expected object, got array"),
        ({"total": 1, "payer": {"name": "a", "vat": "x"}}, "$.payer.vat", "not an allowed"),
        ({"total": 1, "memo": {}}, "$.memo", "expected null, got object"),
        ({"total": None}, "$.total", "expected number, got null"),
        ({"total": 1, "extra": 0}, "$.extra", "is not an allowed property"),
    ],
)
def test_the_first_violation_names_its_path_and_problem(
    value: dict[str, Any], path: str, problem: str
) -> None:
    violation = first_violation(value, INVOICE)
    assert violation is not None
    assert violation.path == path
    assert problem in violation.problem


def test_a_violation_keeps_the_bad_value_unless_the_property_is_missing_or_extra() -> None:
    assert first_violation({"total": -2}, INVOICE) == Violation(
        "$.total", "-2 is below the minimum 0", -2
    )
    missing = first_violation({}, INVOICE)
    assert missing is not None
    assert missing.value is None


def test_a_long_bad_value_is_shortened_in_the_problem() -> None:
    violation = first_violation({"total": 1, "tags": ["x" * 100]}, INVOICE)
    assert violation is not None
    assert violation.problem.startswith("'" + "x" * 58 + "… is not one of")
    assert violation.value == "x" * 100


def test_an_integral_float_counts_as_an_integer() -> None:
    assert first_violation({"total": 1, "lines": 3.0}, INVOICE) is None


def test_enum_membership_does_not_confuse_true_with_one() -> None:
    schema = {"type": "object", "properties": {"flag": {"enum": [1]}}}
    assert first_violation({"flag": True}, schema) == Violation(
        "$.flag", "True is not one of [1]", True
    )
    assert first_violation({"flag": 1}, schema) is None


def test_a_value_of_another_python_type_is_named_by_its_type() -> None:
    violation = first_violation({"total": (1,)}, INVOICE)
    assert violation == Violation("$.total", "expected number, got tuple", (1,))


@given(
    total=st.floats(min_value=0, max_value=10_000, allow_nan=False),
    lines=st.integers(),
    tags=st.lists(st.sampled_from(["urgent", "late"])),
)
def test_every_value_built_within_the_schema_conforms(
    total: float, lines: int, tags: list[str]
) -> None:
    assert first_violation({"total": total, "lines": lines, "tags": tags}, INVOICE) is None


@given(total=st.one_of(st.floats(max_value=-1e-9), st.floats(min_value=10_000.001)))
def test_every_total_out_of_range_is_caught(total: float) -> None:
    violation = first_violation({"total": total}, INVOICE)
    assert violation is not None
    assert violation.path == "$.total"
