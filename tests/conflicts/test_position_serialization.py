"""Positions serialize in Rust: no Python call per value when a case is written as JSON."""

from __future__ import annotations

import re

import pytest

from accord.conflicts import Evidence, Position


@pytest.mark.parametrize("model", [Position, Evidence])
def test_checked_fields_serialize_without_a_python_function_per_value(model: type) -> None:
    serializer = str(model.__pydantic_serializer__)
    assert not re.search(r"Function\w*Serializer", serializer)


@pytest.mark.parametrize(
    "output",
    [True, 12, 12.5, "approve", {"total": 12.5, "lines": [{"sku": "a", "qty": 2}], "ok": None}],
)
def test_every_output_kind_survives_a_json_round_trip(output: object) -> None:
    position = Position(
        agent="agent:a",
        output=output,
        confidence=0.75,
        reasoning="checked the source",
        evidence=[{"kind": "document", "reference": "inv-1", "content": {"total": 12}}],
    )
    text = position.model_dump_json()
    assert Position.model_validate_json(text) == position
    assert position.model_dump(mode="json")["output"] == output


def test_an_output_nested_deeper_than_the_limit_is_refused_naming_its_path() -> None:
    from accord.errors import ValidationError
    from accord.values import MAX_DEPTH

    deep: object = 1
    for _ in range(3_000):
        deep = [deep]
    with pytest.raises(ValidationError) as err:
        Position(agent="agent:a", output={"x": deep})
    assert err.value.code == "conflicts.too_deep"
    assert err.value.context["field"] == "output.x" + "[0]" * (MAX_DEPTH - 1)
