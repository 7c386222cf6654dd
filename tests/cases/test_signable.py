"""Answers as signed records pin them (hashes of the signable form), fractions as basis points."""

from __future__ import annotations

from accord.cases.signable import AnswerHashes, answer_hash, answer_key, basis_points


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
