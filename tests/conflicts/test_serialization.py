"""Every model of the room survives a JSON round trip without pydantic warnings."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from accord.conflicts import (
    DecisionTable,
    DetectionSettings,
    Evidence,
    NumericThresholds,
    Position,
    classify,
    detect,
    merge_complementary,
)

from ._builders import pos

RICH = Position(
    agent="agent:a",
    output={"total": 1200, "lines": [1, 2.5], "meta": {"currency": "EUR"}},
    confidence=0.8,
    field_confidence={"total": 0.9},
    evidence=[Evidence.of("receipt", {"amount": 0.5})],
    sources=["erp"],
    assumptions=["no VAT"],
    reasoning="summed",
    task_subset=["totals"],
)


def models() -> list[BaseModel]:
    detection = detect([RICH, pos("agent:b", {"total": 1500, "lines": [2.5, 1]})])
    return [
        RICH,
        pos("agent:c", True),
        pos("agent:d", 2.5),
        pos("agent:e", "approve"),
        detection,
        classify(detection),
        merge_complementary([RICH]),
        DetectionSettings(per_field={"total": NumericThresholds(conflict_gap=0.01)}),
        DecisionTable(critical_starts_at_human_appeal=True),
    ]


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("model", models(), ids=lambda model: type(model).__name__)
def test_a_model_survives_a_json_round_trip(model: BaseModel) -> None:
    again = type(model).model_validate_json(model.model_dump_json())
    assert again == model
