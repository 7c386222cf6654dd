"""A stored case document names each output once and reads back as the case that was settled."""

from __future__ import annotations

import json

from accord.cases import CaseStore, Settler, SettleRequest
from accord.cases.store import case_row


def big_table(changed: int) -> dict[str, object]:
    rows = [{"id": i, "name": f"item-{i:06d}", "qty": i % 7} for i in range(500)]
    rows[changed]["qty"] = -1
    return {"rows": rows, "meta": {"total": {"sum": changed}}}


def test_a_large_output_is_stored_once_per_position_and_reads_back_equal(
    settler: Settler, store: CaseStore
) -> None:
    first, second = big_table(1), big_table(2)
    case = settler.settle(
        SettleRequest(
            "two tables",
            [
                {"agent": "agent:a", "output": first, "confidence": 0.9},
                {"agent": "agent:b", "output": second, "confidence": 0.5},
            ],
        )
    )
    document = case_row(case)["document"]
    outputs = len(json.dumps(first)) + len(json.dumps(second))

    assert case.decision is not None
    assert case.decision.answer == first
    assert case.detection.field_conflicts
    assert len(document) < 1.2 * outputs  # the positions, and markers for every repeat
    assert '"$.output"' in document
    assert store.get(case.case_id) == case


def test_escalated_and_field_level_answers_are_restored_from_the_positions(
    settler: Settler, store: CaseStore
) -> None:
    positions = [
        {"agent": "agent:a", "output": {"plan": ["x", "y"], "n": 1}, "confidence": 0.6},
        {"agent": "agent:b", "output": {"plan": ["y", "x"], "n": 1}, "confidence": 0.6},
    ]
    case = settler.settle(SettleRequest("plans", positions))
    loaded = store.get(case.case_id)

    assert loaded == case
    assert loaded.detection.field_conflicts[0].groups[0].answer == ["x", "y"]


def test_a_stored_dissent_names_its_outputs_once_and_reads_back_equal(
    settler: Settler, store: CaseStore
) -> None:
    from accord.cases.case import DissentRecord
    from accord.cases.store import dissent_row

    first, second = big_table(1), big_table(2)
    case = settler.settle(
        SettleRequest(
            "two tables",
            [
                {"agent": "agent:a", "output": first, "confidence": 0.9},
                {"agent": "agent:b", "output": second, "confidence": 0.5},
            ],
        )
    )
    record = case.dissent[0]
    document = dissent_row(record)["document"]

    assert len(document) < 1.2 * (len(json.dumps(first)) + len(json.dumps(second)))
    assert DissentRecord.model_validate_json(document) == record
