"""JSON text from outside is read with JavaScript number semantics before it is canonicalized."""

from __future__ import annotations

import pytest

from accord.crypto import CanonicalizationError, canonical_from_json_text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"n":1.0}', b'{"n":1}'),
        ('{"n":1.00}', b'{"n":1}'),
        ('{"n":1e2}', b'{"n":100}'),
        ('{"n":1E+2}', b'{"n":100}'),
        ('{"n":-0.0}', b'{"n":0}'),
        ('{"n":1.0000000000000001}', b'{"n":1}'),
        ("[ 1 , 2 ]", b"[1,2]"),
        (
            '{"b": {"y": 1, "x": [true, null]}, "a": "\\u00e9"}',
            '{"a":"é","b":{"x":[true,null],"y":1}}'.encode(),
        ),
    ],
)
def test_integer_valued_numbers_are_written_as_integers(text: str, expected: bytes) -> None:
    assert canonical_from_json_text(text) == expected


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"n":0.1}', "$.n"),
        ('{"n":1.5}', "$.n"),
        ('{"n":1.0e-1}', "$.n"),
        ('{"a":[1,{"b":2.5}]}', "$.a[1].b"),
        ("1e400", "$"),
    ],
)
def test_fractional_and_overflowing_numbers_are_refused(text: str, path: str) -> None:
    with pytest.raises(CanonicalizationError) as caught:
        canonical_from_json_text(text)
    assert caught.value.code == "canonical.float"
    assert caught.value.context["path"] == path


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_literals_are_refused(literal: str) -> None:
    with pytest.raises(CanonicalizationError) as caught:
        canonical_from_json_text(f'{{"n":{literal}}}')
    assert caught.value.code == "canonical.float"
    assert caught.value.context["value"] == literal


def test_duplicate_keys_are_refused_at_their_path() -> None:
    with pytest.raises(CanonicalizationError) as caught:
        canonical_from_json_text('{"a":{"k":1,"k":2}}')
    assert caught.value.code == "canonical.duplicate_key"
    assert caught.value.context["path"] == "$.a.k"


def test_large_integer_literals_are_refused_as_out_of_range() -> None:
    with pytest.raises(CanonicalizationError) as caught:
        canonical_from_json_text('{"n":9007199254740992}')
    assert caught.value.code == "canonical.integer_range"


def test_integral_numbers_beyond_the_safe_range_are_refused_too() -> None:
    with pytest.raises(CanonicalizationError) as caught:
        canonical_from_json_text('{"n":1e20}')
    assert caught.value.code == "canonical.integer_range"


def test_escaped_lone_surrogates_are_refused() -> None:
    with pytest.raises(CanonicalizationError) as caught:
        canonical_from_json_text('{"s":"\\ud800"}')
    assert caught.value.code == "canonical.surrogate"
    assert caught.value.context["path"] == "$.s"


@pytest.mark.parametrize("text", ["", "{", '{"a":1,}', "[1] [2]", "'single'", "1" * 5000])
def test_malformed_json_is_refused_as_a_syntax_error(text: str) -> None:
    with pytest.raises(CanonicalizationError) as caught:
        canonical_from_json_text(text)
    assert caught.value.code == "canonical.json_syntax"


def test_absurdly_deep_nesting_is_refused() -> None:
    with pytest.raises(CanonicalizationError) as caught:
        canonical_from_json_text("[" * 100_000 + "]" * 100_000)
    assert caught.value.code == "canonical.depth"
