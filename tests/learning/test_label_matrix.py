from __future__ import annotations

import numpy as np
import pytest

from accord.errors import ValidationError
from accord.learning import LabelMatrix


def test_names_are_encoded_to_codes_in_sorted_order() -> None:
    data = LabelMatrix.from_triples([("q2", "bob", "yes"), ("q1", "amy", "no")])
    assert data.items == ("q1", "q2")
    assert data.workers == ("amy", "bob")
    assert data.classes == ("no", "yes")
    assert data.item_idx.tolist() == [1, 0]
    assert data.worker_idx.tolist() == [1, 0]
    assert data.label_idx.tolist() == [1, 0]
    assert (data.n_items, data.n_workers, data.n_classes, data.n_answers) == (2, 2, 2, 2)


def test_a_worker_answering_an_item_twice_keeps_the_last_answer() -> None:
    data = LabelMatrix.from_triples([("q", "amy", "no"), ("q", "bob", "no"), ("q", "amy", "yes")])
    assert sorted(data.triples()) == [("q", "amy", "yes"), ("q", "bob", "no")]
    assert data.n_answers == 2


def test_declared_classes_fix_the_order_and_may_include_unchosen_ones() -> None:
    data = LabelMatrix.from_triples([("q", "amy", "b")], classes=["c", "b", "a"])
    assert data.classes == ("c", "b", "a")
    assert data.label_idx.tolist() == [1]


def test_a_label_outside_the_declared_classes_is_rejected() -> None:
    with pytest.raises(ValidationError, match="outside the declared classes"):
        LabelMatrix.from_triples([("q", "amy", "maybe")], classes=["no", "yes"])


def test_answer_counts_tally_votes_per_item_and_class() -> None:
    data = LabelMatrix.from_triples(
        [("q1", "a", "x"), ("q1", "b", "y"), ("q1", "c", "y"), ("q2", "a", "x")]
    )
    assert data.answer_counts().tolist() == [[1, 2], [1, 0]]


def test_no_answers_give_an_empty_matrix() -> None:
    data = LabelMatrix.from_triples([])
    assert data.n_answers == data.n_items == data.n_classes == 0


def test_the_code_arrays_are_read_only() -> None:
    data = LabelMatrix.from_triples([("q", "amy", "no")])
    with pytest.raises(ValueError, match="read-only"):
        data.label_idx[0] = 1


def _codes(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.intp)


def test_arrays_of_different_lengths_are_rejected() -> None:
    with pytest.raises(ValidationError, match="differ in length"):
        LabelMatrix(("q",), ("w",), ("c",), _codes(0, 0), _codes(0), _codes(0))


def test_a_code_out_of_range_is_rejected() -> None:
    with pytest.raises(ValidationError, match="out of range") as caught:
        LabelMatrix(("q",), ("w",), ("c",), _codes(0), _codes(1), _codes(0))
    assert caught.value.context["field"] == "worker_idx"


@pytest.mark.parametrize("field", ["items", "workers", "classes"])
def test_a_duplicate_name_is_rejected(field: str) -> None:
    names: dict[str, tuple[str, ...]] = {"items": ("q",), "workers": ("w",), "classes": ("c",)}
    names[field] = ("x", "x")
    with pytest.raises(ValidationError, match="duplicate"):
        LabelMatrix(
            names["items"], names["workers"], names["classes"], _codes(0), _codes(0), _codes(0)
        )
