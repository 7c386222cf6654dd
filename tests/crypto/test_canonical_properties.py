"""Properties of the canonical form over generated float-free JSON values."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from accord.crypto import canonical_bytes, canonical_from_json_text
from accord.crypto.canonical import MAX_SAFE_INTEGER

_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-MAX_SAFE_INTEGER, max_value=MAX_SAFE_INTEGER)
    | _text
)
json_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(_text, children, max_size=5),
    max_leaves=30,
)


@given(json_values)
def test_parsing_the_canonical_bytes_and_canonicalizing_again_changes_nothing(
    value: object,
) -> None:
    canonical = canonical_bytes(value)
    assert canonical_bytes(json.loads(canonical)) == canonical


@given(json_values)
def test_canonical_bytes_are_a_fixed_point_of_the_json_text_reader(value: object) -> None:
    canonical = canonical_bytes(value)
    assert canonical_from_json_text(canonical.decode("utf-8")) == canonical


@given(st.dictionaries(_text, json_values, max_size=8), st.randoms(use_true_random=False))
def test_key_insertion_order_does_not_change_the_bytes(
    value: dict[str, object], shuffler: random.Random
) -> None:
    items = list(value.items())
    shuffler.shuffle(items)
    assert canonical_bytes(dict(items)) == canonical_bytes(value)


@given(json_values)
def test_canonical_bytes_are_compact_utf8_json(value: object) -> None:
    canonical = canonical_bytes(value)
    text = canonical.decode("utf-8")
    assert json.loads(text) == value
    assert text == json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
