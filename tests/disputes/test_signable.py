"""Values fit for signed records: floats as decimal strings, fractions as basis points."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from accord.crypto import canonical_bytes
from accord.disputes.signable import AnswerHashes, answer_hash, answer_key, basis_points, signable


def test_floats_become_decimal_strings_anywhere_in_a_value() -> None:
    value = {"total": 1200.5, "lines": [1.25, 2, {"tax": 0.1}], "pair": (3.0, "x"), 7: True}

    assert signable(value) == {
        "total": {"$decimal": "1200.5"},
        "lines": [{"$decimal": "1.25"}, 2, {"tax": {"$decimal": "0.1"}}],
        "pair": [{"$decimal": "3.0"}, "x"],
        "7": True,
    }


def test_values_without_floats_are_unchanged() -> None:
    assert signable({"a": [1, "b", None, False]}) == {"a": [1, "b", None, False]}


def test_basis_points_round_fractions_and_keep_none() -> None:
    assert basis_points(0.8512) == 8512
    assert basis_points(1.0) == 10_000
    assert basis_points(0.00004) == 0
    assert basis_points(None) is None


def test_an_answer_hash_pins_the_value_exactly() -> None:
    assert answer_hash(1).startswith("sha256:")
    assert answer_hash(1) != answer_hash(1.0)
    assert answer_hash({"a": 1, "b": 2}) == answer_hash({"b": 2, "a": 1})
    assert answer_key("approve") == answer_hash("approve")


def test_memoized_answer_hashes_equal_fresh_ones() -> None:
    hashes = AnswerHashes()

    for value in [1, 1.0, True, "1", {"a": 1}, {"a": 1}, [1, 2]]:
        assert hashes(value) == answer_hash(value)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=10,
)


@given(json_values)
def test_the_signable_form_of_any_json_value_is_canonical(value: object) -> None:
    assert canonical_bytes(signable(value))
