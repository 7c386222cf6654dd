"""A settle file's JSON array is read element by element, whatever the chunk boundaries."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.cli.json_array_stream import array_elements
from accord.errors import AccordError

_TEXT = st.text(alphabet=st.sampled_from(list('ab[]{},"\\ é\n\t')), max_size=12)
_LEAF = st.none() | st.booleans() | st.integers(-10**6, 10**6) | _TEXT
_VALUE = st.recursive(
    _LEAF,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)


def _elements(text: str, chunk: int, limit: int = 10_000) -> list[Any]:
    stream = io.BytesIO(text.encode("utf-8"))
    raw = array_elements(stream, name="cases.json", element_limit=limit, chunk_bytes=chunk)
    return [json.loads(element) for element in raw]


@settings(max_examples=150)
@given(values=st.lists(_VALUE, max_size=6), chunk=st.integers(1, 9), indent=st.booleans())
def test_any_array_splits_into_its_elements_at_any_chunk_size(
    values: list[Any], chunk: int, indent: bool
) -> None:
    text = json.dumps(values, indent=2 if indent else None, ensure_ascii=False)
    assert _elements(text, chunk) == values


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ('{"subject": 1}', "not a JSON array"),
        ("[1, 2", "not closed"),
        ("[1, , 2]", "an empty element"),
        ("[1] [2]", "text after the JSON array"),
        ("", "not a JSON array"),
    ],
)
def test_a_file_that_is_not_one_json_array_is_named_with_the_rule(text: str, rule: str) -> None:
    with pytest.raises(AccordError) as refused:
        _elements(text, 4)
    assert rule in refused.value.message
    assert refused.value.code == "settle.bad_file"


def test_an_element_longer_than_the_case_limit_is_refused_before_it_is_parsed() -> None:
    text = json.dumps([{"subject": "x" * 500}])
    with pytest.raises(AccordError) as refused:
        _elements(text, 64, limit=100)
    assert refused.value.code == "limits.exceeded"
