from __future__ import annotations

import hashlib
import json

import pytest

from accord.conflicts import Evidence
from accord.crypto import content_hash
from accord.errors import ValidationError


def test_float_free_content_is_hashed_over_its_canonical_json() -> None:
    evidence = Evidence.of("document", {"total": 1200, "lines": [1, 2]}, reference="inv:4411")
    assert evidence.content_hash == content_hash({"lines": [1, 2], "total": 1200})
    assert evidence.reference == "inv:4411"


def test_content_with_floats_is_hashed_over_sorted_compact_json_with_repr_floats() -> None:
    evidence = Evidence.of("measurement", {"b": 0.1, "a": "é"})
    text = '{"a":"é","b":0.1}'
    assert evidence.content_hash == "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def test_an_integer_and_the_equal_float_hash_differently() -> None:
    assert Evidence.of("n", 1).content_hash != Evidence.of("n", 1.0).content_hash


def test_evidence_without_content_hashes_null() -> None:
    evidence = Evidence(kind="url", reference="https://example.org")
    assert evidence.content is None
    assert evidence.content_hash == content_hash(None)


def test_a_matching_supplied_hash_is_accepted() -> None:
    digest = content_hash({"x": 1})
    assert Evidence(kind="doc", content={"x": 1}, content_hash=digest).content_hash == digest


def test_a_mismatching_supplied_hash_is_refused() -> None:
    with pytest.raises(ValidationError) as caught:
        Evidence(kind="doc", content={"x": 1}, content_hash=content_hash({"x": 2}))
    assert caught.value.code == "conflicts.evidence_hash_mismatch"
    assert caught.value.context["field"] == "content_hash"
    assert caught.value.context["computed"] == content_hash({"x": 1})


def test_content_is_copied_so_later_changes_cannot_alter_it() -> None:
    content = {"lines": [1, 2]}
    evidence = Evidence.of("doc", content)
    content["lines"].append(3)
    assert evidence.content == {"lines": [1, 2]}
    assert evidence.content_hash == content_hash({"lines": [1, 2]})


def test_tuples_in_content_become_lists() -> None:
    assert Evidence.of("doc", {"pair": (1, 2)}).content == {"pair": [1, 2]}


def test_evidence_is_frozen() -> None:
    evidence = Evidence.of("doc", 1)
    with pytest.raises(Exception, match="frozen"):
        evidence.kind = "other"  # type: ignore[misc]


def test_validating_an_evidence_returns_it_unchanged() -> None:
    evidence = Evidence.of("doc", 1)
    assert Evidence.model_validate(evidence) is evidence


@pytest.mark.parametrize(
    ("content", "code", "field"),
    [
        ({"x": [1, float("nan")]}, "conflicts.non_finite", "content.x[1]"),
        ({"x": float("inf")}, "conflicts.non_finite", "content.x"),
        ({"x": {1, 2}}, "conflicts.invalid_value_type", "content.x"),
        ({1: "x"}, "conflicts.invalid_field_name", "content"),
        ({"x": 2**60}, "conflicts.invalid_evidence_content", "content.x"),
        ({"x": "\ud800"}, "conflicts.invalid_evidence_content", "content.x"),
        ({"x": "\ud800", "y": 0.5}, "conflicts.invalid_evidence_content", "content"),
    ],
)
def test_content_that_is_not_finite_json_is_refused_naming_the_field(
    content: object, code: str, field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        Evidence.of("doc", content)
    assert caught.value.code == code
    assert caught.value.context["field"] == field


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ({"kind": ""}, "conflicts.invalid_evidence", "kind"),
        ({"content": 1}, "conflicts.invalid_evidence", "kind"),
        ({"kind": "doc", "note": 1}, "conflicts.unknown_field", "note"),
        ({"kind": "doc", "reference": 7}, "conflicts.invalid_evidence", "reference"),
        ("not a mapping", "conflicts.invalid_evidence", "evidence"),
    ],
)
def test_malformed_evidence_is_refused_naming_the_field(
    data: object, code: str, field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        Evidence.model_validate(data)
    assert caught.value.code == code
    assert caught.value.context["field"] == field


def test_evidence_round_trips_through_json() -> None:
    evidence = Evidence.of("doc", {"x": [1, 0.5]}, description="a receipt")
    again = Evidence.model_validate(json.loads(evidence.model_dump_json()))
    assert again == evidence
