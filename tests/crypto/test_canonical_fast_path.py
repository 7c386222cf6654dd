"""The fast structural check agrees with the strict walk on every built-in value; strings are
checked for lone surrogates afterwards, when the canonical text is encoded."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.crypto import canonical_bytes
from accord.crypto.canonical import MAX_SAFE_INTEGER, _check, _is_plain_json
from accord.errors import CanonicalizationError

_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=6)
_leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats(allow_nan=True)
    | _text
    | st.binary(max_size=3)
)
_keys = _text | st.integers(min_value=-3, max_value=3) | st.none()
_values = st.recursive(
    _leaves,
    lambda children: (
        st.lists(children, max_size=4)
        | st.lists(children, max_size=4).map(tuple)
        | st.dictionaries(_keys, children, max_size=4)
    ),
    max_leaves=25,
)


def _strict_accepts(value: object) -> bool:
    try:
        _check(value, "$")
    except CanonicalizationError:
        return False
    return True


@given(_values)
def test_the_fast_check_agrees_with_the_strict_walk_on_built_in_values(value: object) -> None:
    assert _is_plain_json(value) == _strict_accepts(value)


def test_the_fast_check_refuses_a_float_or_a_huge_integer_deep_inside() -> None:
    assert not _is_plain_json({"a": [{"b": [1, 2, 1.0]}]})
    assert not _is_plain_json([[{"n": MAX_SAFE_INTEGER + 1}]])
    assert not _is_plain_json({"a": {1: "int key"}})
    assert _is_plain_json({"a": [{"b": [1, "x", None, True]}], "n": -MAX_SAFE_INTEGER})


def test_a_lone_surrogate_deep_inside_passes_the_fast_check_but_never_canonicalizes() -> None:
    # The fast check does not look inside strings; encoding to UTF-8 catches surrogates.
    value = {"a": [{"b": ["ok", "bad \ud800"]}]}
    assert _is_plain_json(value)
    with pytest.raises(CanonicalizationError) as err:
        canonical_bytes(value)
    assert err.value.code == "canonical.surrogate"
    assert err.value.context["path"] == "$.a[0].b[1]"
