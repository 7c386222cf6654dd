"""The side-by-side diff: every field shown once, disagreements marked."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from accord.api.ui.diff import MISSING, field_rows, flatten


def test_structured_outputs_are_compared_field_by_field() -> None:
    rows = field_rows(
        [
            {"legal_name": "ACME SAS", "address": {"city": "Lyon", "zip": "69001"}},
            {"legal_name": "ACME SAS", "address": {"city": "Paris"}, "employees": 420},
        ]
    )
    by_path = {r.path: r for r in rows}
    assert list(by_path) == ["legal_name", "address.city", "address.zip", "employees"]
    assert by_path["legal_name"].agree
    assert not by_path["address.city"].agree
    assert by_path["address.zip"].values == ("69001", MISSING)
    assert not by_path["employees"].agree


def test_a_scalar_output_is_the_single_field_output() -> None:
    rows = field_rows(["approve", "reject"])
    assert [(r.path, r.values, r.agree) for r in rows] == [("output", ("approve", "reject"), False)]


def test_lists_are_indexed_and_one_and_1_0_differ_from_true() -> None:
    assert flatten({"lines": [{"price": 1}, {"price": 2}]}) == {
        "lines[0].price": 1,
        "lines[1].price": 2,
    }
    assert not field_rows([True, 1])[0].agree


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=10,
)


@given(st.lists(json_values, min_size=1, max_size=4))
def test_identical_outputs_agree_everywhere_and_every_field_appears_once(
    outputs: list[Any],
) -> None:
    rows = field_rows(outputs)
    assert len({r.path for r in rows}) == len(rows)
    assert all(len(r.values) == len(outputs) for r in rows)
    same = field_rows([outputs[0]] * len(outputs))
    assert all(r.agree for r in same)
