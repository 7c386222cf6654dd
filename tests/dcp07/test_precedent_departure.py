"""Departing from precedent (R25): allowed, but only with documented reasoning in the signed
resolution record."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from accord.dcp07 import ResolutionRecord, cosigned, read_record, record_document
from accord.errors import ValidationError
from tests.conftest import REPO_ROOT
from tests.dcp07._records import (
    ARBITRATORS,
    JURISPRUDENCE_ID,
    resolution_document,
    signer_for,
)


def departing(**application: Any) -> dict[str, Any]:
    document = resolution_document()
    document["precedents_applied"] = [{"jurisprudence_id": JURISPRUDENCE_ID, **application}]
    return document


def test_r25_a_panel_departs_from_a_cited_precedent_with_its_reasoning_recorded_and_signed() -> (
    None
):
    reasoning = "The precedent split a GPU by the hour; this write lock cannot be time-shared."
    record = read_record(
        ResolutionRecord, departing(applicability="departed", departure_reasoning=reasoning)
    )
    (applied,) = record.precedents_applied
    assert applied.departed
    signed = cosigned(record, ARBITRATORS[0], signer_for(ARBITRATORS[0]))
    document = record_document(signed)
    assert document["precedents_applied"][0]["departure_reasoning"] == reasoning
    assert read_record(ResolutionRecord, document) == signed
    schema = json.loads(
        (REPO_ROOT / "schemas/dcp07/arbitration_resolution.schema.json").read_text("utf-8")
    )
    Draft202012Validator(schema).validate(document)


@pytest.mark.parametrize("reasoning", [None, "   "])
def test_r25_a_departure_without_reasoning_is_refused(reasoning: str | None) -> None:
    application: dict[str, Any] = {"applicability": "departed"}
    if reasoning is not None:
        application["departure_reasoning"] = reasoning
    with pytest.raises(ValidationError) as caught:
        read_record(ResolutionRecord, departing(**application))
    assert caught.value.code == "dcp.departure_unreasoned"
    assert caught.value.context["requirement"] == "R25"
    assert caught.value.context["jurisprudence_id"] == JURISPRUDENCE_ID


def test_r25_departure_reasoning_on_a_precedent_followed_is_refused() -> None:
    with pytest.raises(ValidationError) as caught:
        read_record(
            ResolutionRecord,
            departing(applicability="Directly applicable", departure_reasoning="Why not."),
        )
    assert caught.value.code == "dcp.departure_reasoning_misplaced"


def test_r25_a_followed_precedent_keeps_the_section_6_shape_without_the_new_field() -> None:
    record = read_record(ResolutionRecord, resolution_document())
    assert "departure_reasoning" not in record_document(record)["precedents_applied"][0]
    assert not record.precedents_applied[0].departed
