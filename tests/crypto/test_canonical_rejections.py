"""canonical_bytes refuses what dcp-jcs-v1 cannot express, naming code, path and rule."""

from __future__ import annotations

import enum
import math
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest

from accord.crypto import CanonicalizationError, canonical_bytes
from accord.crypto.canonical import MAX_SAFE_INTEGER


def _rejection(value: object) -> CanonicalizationError:
    with pytest.raises(CanonicalizationError) as caught:
        canonical_bytes(value)
    assert caught.value.context["rule"]
    return caught.value


@pytest.mark.parametrize("number", [1.0, 0.5, -0.0, math.nan, math.inf, -math.inf])
def test_any_float_is_refused_even_an_integral_one(number: float) -> None:
    error = _rejection({"a": {"b": [0, 1, number]}})
    assert error.code == "canonical.float"
    assert error.context["path"] == "$.a.b[2]"


@pytest.mark.parametrize("number", [MAX_SAFE_INTEGER + 1, -MAX_SAFE_INTEGER - 1, 10**30])
def test_integers_beyond_two_to_the_53_minus_one_are_refused(number: int) -> None:
    error = _rejection({"seq": number})
    assert error.code == "canonical.integer_range"
    assert error.context["path"] == "$.seq"


def test_the_largest_safe_integers_are_accepted() -> None:
    assert canonical_bytes([MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER]) == (
        b"[9007199254740991,-9007199254740991]"
    )


def test_a_lone_surrogate_in_a_string_is_refused_at_its_path() -> None:
    error = _rejection({"ok": "fine", "notes": ["x", "bad \ud800 text"]})
    assert error.code == "canonical.surrogate"
    assert error.context["path"] == "$.notes[1]"


def test_a_lone_surrogate_in_a_key_is_refused_at_its_path() -> None:
    error = _rejection({"outer": {"k\udc00": 1}})
    assert error.code == "canonical.surrogate"
    assert error.context["path"] == '$.outer["k\\udc00"]'


def test_a_surrogate_pair_written_as_one_code_point_is_fine() -> None:
    assert canonical_bytes({"emoji": "\U0001f30d"}) == '{"emoji":"\U0001f30d"}'.encode()


@pytest.mark.parametrize("key", [1, None, True, b"k", ("a", "b")])
def test_non_string_keys_are_refused(key: object) -> None:
    error = _rejection({"outer": {key: 1}})
    assert error.code == "canonical.key_type"
    assert error.context["path"] == f"$.outer[{key!r}]"


@pytest.mark.parametrize(
    "value",
    [
        b"bytes",
        bytearray(b"x"),
        {1, 2},
        frozenset(),
        datetime(2026, 1, 1, tzinfo=UTC),
        Decimal("1"),
        object(),
        complex(1, 2),
    ],
)
def test_values_that_are_not_json_are_refused_with_their_type(value: object) -> None:
    error = _rejection({"list": [value]})
    assert error.code == "canonical.type"
    assert error.context["path"] == "$.list[0]"
    assert error.context["value_type"] == type(value).__name__


def test_keys_that_are_not_identifiers_are_quoted_in_the_path() -> None:
    error = _rejection({"a.b": {"with space": [1.5]}})
    assert error.context["path"] == '$["a.b"]["with space"][0]'


def test_a_float_at_the_top_level_is_reported_at_the_root() -> None:
    assert _rejection(2.5).context["path"] == "$"


def test_a_cycle_is_refused_instead_of_recursing_forever() -> None:
    looped: dict[str, Any] = {}
    looped["self"] = looped
    assert _rejection(looped).code == "canonical.depth"


def test_a_cycle_through_a_custom_mapping_is_refused_too() -> None:
    looped: dict[str, Any] = {}
    looped["m"] = _FrozenMapping({"back": looped})
    assert _rejection(looped).code == "canonical.depth"


class _FrozenMapping(Mapping[object, object]):
    def __init__(self, data: dict[object, object]) -> None:
        self._data = data

    def __getitem__(self, key: object) -> object:
        return self._data[key]

    def __iter__(self) -> Iterator[object]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


class _Colour(enum.StrEnum):
    RED = "red"


class _Level(enum.IntEnum):
    HIGH = 3


def test_any_mapping_tuples_and_str_or_int_subclasses_are_json() -> None:
    value = _FrozenMapping(
        {"z": (1, 2), "a": OrderedDict([("y", _Colour.RED), ("x", _Level.HIGH)]), "n": None}
    )
    assert canonical_bytes(value) == b'{"a":{"x":3,"y":"red"},"n":null,"z":[1,2]}'


def test_a_float_inside_a_custom_mapping_is_still_found() -> None:
    error = _rejection({"m": _FrozenMapping({"f": 0.25})})
    assert error.code == "canonical.float"
    assert error.context["path"] == "$.m.f"


def test_out_of_range_int_subclasses_are_refused() -> None:
    class Big(int):
        pass

    assert _rejection([Big(2**60)]).code == "canonical.integer_range"


def test_only_required_escapes_are_written() -> None:
    text = 'quote " backslash \\ newline \n tab \t nul \x00 del \x7f é \u2028'
    assert canonical_bytes(text) == (
        '"quote \\" backslash \\\\ newline \\n tab \\t nul \\u0000 del \x7f é \u2028"'.encode()
    )


def test_booleans_stay_booleans_and_are_not_mistaken_for_integers() -> None:
    assert canonical_bytes({"t": True, "f": False, "one": 1}) == b'{"f":false,"one":1,"t":true}'


def test_errors_carry_a_message_naming_the_path() -> None:
    error = _rejection({"score": 0.5})
    assert "$.score" in str(error)
    assert error.to_dict()["code"] == "canonical.float"
