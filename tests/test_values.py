"""The shared value helpers: the signed ``$decimal`` encoding, dotted paths, checked plain JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, model_validator
from pydantic import ValidationError as PydanticValidationError

from accord import Accord
from accord.crypto import canonical_bytes
from accord.errors import ValidationError
from accord.values import (
    DECIMAL,
    MAX_DEPTH,
    MISSING,
    ancestors,
    from_signable,
    leaves,
    nearest_value,
    path_key,
    plain_json,
    revised,
    signable,
    value_at,
)

# Canonical bytes of the signable form as signed records carried them before the encoding had
# one home (disputes/signable.py and boundary/_json.py agreed on every one): a signed record
# written then must verify now, so these bytes never change.
SIGNED_CORPUS: list[tuple[Any, bytes]] = [
    (0.1, b'{"$decimal":"0.1"}'),
    (1200.5, b'{"$decimal":"1200.5"}'),
    (-0.0, b'{"$decimal":"-0.0"}'),
    (1e-07, b'{"$decimal":"1e-07"}'),
    (1e22, b'{"$decimal":"1e+22"}'),
    (5e-324, b'{"$decimal":"5e-324"}'),
    (1.7976931348623157e308, b'{"$decimal":"1.7976931348623157e+308"}'),
    (3.0, b'{"$decimal":"3.0"}'),
    (0.1 + 0.2, b'{"$decimal":"0.30000000000000004"}'),
    (
        {"total": 1200.5, "lines": [1.25, 2, {"tax": 0.1}], "n": None, "ok": True, "s": "é"},
        b'{"lines":[{"$decimal":"1.25"},2,{"tax":{"$decimal":"0.1"}}],"n":null,"ok":true,'
        b'"s":"\xc3\xa9","total":{"$decimal":"1200.5"}}',
    ),
    ([1, "x", [2.5, [0.125]], {}], b'[1,"x",[{"$decimal":"2.5"},[{"$decimal":"0.125"}]],{}]'),
    ({"a": {"b": {"c": -2.75}}, "z": 7}, b'{"a":{"b":{"c":{"$decimal":"-2.75"}}},"z":7}'),
    ({"n": 1200, "t": "EUR", "f": False}, b'{"f":false,"n":1200,"t":"EUR"}'),
]


@pytest.mark.parametrize(("value", "expected"), SIGNED_CORPUS)
def test_the_signable_form_keeps_the_signed_bytes_of_every_corpus_value(
    value: Any, expected: bytes
) -> None:
    assert canonical_bytes(signable(value)) == expected


@pytest.mark.parametrize(("value", "expected"), SIGNED_CORPUS)
def test_a_checked_copy_encodes_to_the_same_signed_bytes(value: Any, expected: bytes) -> None:
    copy, saw_float = plain_json(value, "value", code_prefix="test")
    assert canonical_bytes(signable(copy)) == expected
    assert saw_float == (b"$decimal" in expected)


def test_floats_become_decimal_strings_anywhere_in_a_value() -> None:
    value = {"total": 1200.5, "lines": [1.25, 2, {"tax": 0.1}], "pair": (3.0, "x"), 7: True}

    assert signable(value) == {
        "total": {DECIMAL: "1200.5"},
        "lines": [{DECIMAL: "1.25"}, 2, {"tax": {DECIMAL: "0.1"}}],
        "pair": [{DECIMAL: "3.0"}, "x"],
        "7": True,
    }


def test_a_value_without_floats_is_returned_itself_not_copied() -> None:
    value = {"a": [1, "b", None, False]}

    assert signable(value) is value


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=10,
)


def _exactly(value: Any) -> Any:
    """``value`` with floats tagged, so ``1 == 1.0`` and ``0.0 == -0.0`` no longer compare equal."""
    if isinstance(value, float):
        return ("float", repr(value))
    if isinstance(value, dict):
        return {key: _exactly(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_exactly(item) for item in value]
    return value


@given(json_values)
def test_the_signable_form_of_any_json_value_is_canonical_and_decodes_to_it_exactly(
    value: Any,
) -> None:
    encoded = signable(value)

    assert canonical_bytes(encoded)
    assert _exactly(from_signable(encoded)) == _exactly(value)
    assert _exactly(from_signable(json.loads(canonical_bytes(encoded)))) == _exactly(value)


@given(json_values)
def test_a_checked_copy_has_the_same_signable_form_as_the_value(value: Any) -> None:
    copy, _ = plain_json(value, "value", code_prefix="test")

    assert canonical_bytes(signable(copy)) == canonical_bytes(signable(value))


def test_leaves_are_keyed_by_dotted_path_in_document_order() -> None:
    output = {"total": {"amount": 1200, "currency": "EUR"}, "lines": [1, 2], "notes": {}}

    assert leaves(output) == {
        "total.amount": 1200,
        "total.currency": "EUR",
        "lines": [1, 2],
        "notes": {},
    }
    assert list(leaves(output)) == ["total.amount", "total.currency", "lines", "notes"]


def test_value_at_finds_leaves_and_sub_mappings_or_says_missing() -> None:
    output = {"total": {"amount": 1200}, "lines": [1]}

    assert value_at(output, "total.amount") == 1200
    assert value_at(output, "total") == {"amount": 1200}
    assert value_at(output, "total.currency") is MISSING
    assert value_at(output, "lines.0") is MISSING
    assert value_at("not a mapping", "total") is MISSING


def test_path_helpers_order_and_walk_up_dotted_paths() -> None:
    assert sorted(["a_b", "a.b", "a"], key=path_key) == ["a", "a.b", "a_b"]
    assert ancestors("a.b.c") == ["a", "a.b"]
    assert ancestors("a") == []
    per_path = {"a": 1, "a.b.c": 3}
    assert nearest_value(per_path, "a.b.c") == 3
    assert nearest_value(per_path, "a.b.d") == 1
    assert nearest_value(per_path, "z") is None


def test_a_checked_copy_is_plain_and_independent_of_the_callers_objects() -> None:
    inner = [1, 2]
    value = {"items": inner, "pair": (1, "x")}

    copy, saw_float = plain_json(value, "output", code_prefix="test")
    inner.append(3)

    assert copy == {"items": [1, 2], "pair": [1, "x"]}
    assert saw_float is False


def _refusal(value: object, **options: Any) -> ValidationError:
    with pytest.raises(ValidationError) as raised:
        plain_json(value, "output", code_prefix="room", context={"position": "a"}, **options)
    return raised.value


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("value", "code", "field"),
    [
        ({"x": [1, float("nan")]}, "room.non_finite", "output.x[1]"),
        ({"x": float("inf")}, "room.non_finite", "output.x"),
        ({"x": {1, 2}}, "room.invalid_value_type", "output.x"),
        ({1: "a"}, "room.invalid_field_name", "output"),
        (_nested(MAX_DEPTH + 1), "room.too_deep", "output" + "[0]" * MAX_DEPTH),
    ],
)
def test_a_value_that_is_not_plain_json_is_refused_naming_the_path_and_rule(
    value: object, code: str, field: str
) -> None:
    error = _refusal(value)

    assert error.code == code
    assert error.context["field"] == field
    assert error.context["rule"]
    assert error.context["position"] == "a"


def test_dotted_or_empty_keys_are_refused_only_when_asked() -> None:
    assert plain_json({"a.b": 1}, "output", code_prefix="room")[0] == {"a.b": 1}

    for key in ("a.b", ""):
        error = _refusal({key: 1}, dotted_keys=False)
        assert error.code == "room.invalid_field_name"
        assert error.context["field"] == f"output.{key}"


class _Span(BaseModel):
    model_config = ConfigDict(frozen=True)
    low: int
    high: int

    @model_validator(mode="after")
    def _ordered(self) -> _Span:
        if self.low > self.high:
            raise ValueError("low above high")
        return self


def test_a_revised_record_is_validated_again() -> None:
    span = _Span(low=1, high=5)
    assert revised(span, high=9) == _Span(low=1, high=9)
    with pytest.raises(PydanticValidationError, match="low above high"):
        revised(span, low=7)


def test_a_revision_naming_no_field_is_refused() -> None:
    with pytest.raises(TypeError, match=r"no field\(s\) \['width'\]"):
        revised(_Span(low=1, high=2), width=3)


def test_a_revised_case_cannot_make_its_winner_a_dissenter(tmp_path: Path) -> None:
    accord = Accord.open(db_url=f"sqlite:///{tmp_path / 'a.db'}", keys_dir=tmp_path / "k")
    try:
        case = accord.settle(
            "Total of invoice 4411",
            [
                {"agent": "agent:billing", "output": 1200, "confidence": 0.9},
                {"agent": "agent:audit", "output": 1450, "confidence": 0.6},
            ],
        )
    finally:
        accord.close()
    [dissent] = case.dissent
    winner = next(p for p in case.positions if p.agent == "agent:billing")
    turned = dissent.model_copy(update={"agent_id": "agent:billing", "position": winner})
    with pytest.raises(PydanticValidationError, match="agent:billing is among the winners"):
        revised(case, dissent=(turned,))
