from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from accord.errors import ValidationError
from accord.learning import LabelMatrix, fit_dawid_skene, majority_vote

from ._builders import accuracy, symmetric_confusion, synthetic_crowd


def test_it_recovers_known_confusion_matrices_of_binary_workers() -> None:
    biased = np.array([[0.95, 0.05], [0.40, 0.60]])
    confusions = [symmetric_confusion(0.9, 2)] * 3 + [symmetric_confusion(0.65, 2)] * 3 + [biased]
    triples, truth = synthetic_crowd(
        confusions, n_items=3000, per_item=5, seed=1, priors=[0.7, 0.3]
    )
    fit = fit_dawid_skene(LabelMatrix.from_triples(triples))
    assert fit.workers == tuple(f"w{w:02d}" for w in range(7))
    np.testing.assert_allclose(fit.confusion, np.stack(confusions), atol=0.05)
    np.testing.assert_allclose(fit.priors, [0.7, 0.3], atol=0.03)
    assert accuracy(fit.labels(), truth) > 0.93


def test_it_recovers_confusion_matrices_with_three_classes() -> None:
    odd = np.array([[0.8, 0.1, 0.1], [0.3, 0.6, 0.1], [0.1, 0.1, 0.8]])
    confusions = [symmetric_confusion(0.85, 3)] * 3 + [symmetric_confusion(0.5, 3)] * 3 + [odd]
    triples, truth = synthetic_crowd(confusions, n_items=3000, per_item=4, seed=2)
    data = LabelMatrix.from_triples(triples)
    fit = fit_dawid_skene(data)
    assert data.classes == ("c0", "c1", "c2")
    assert fit.posteriors.shape == (3000, 3)
    np.testing.assert_allclose(fit.confusion, np.stack(confusions), atol=0.06)
    assert accuracy(fit.labels(), truth) > accuracy(majority_vote(data), truth)


def test_it_handles_four_classes_and_beats_the_majority() -> None:
    confusions = [symmetric_confusion(a, 4) for a in (0.9, 0.8, 0.6, 0.4, 0.35, 0.3)]
    triples, truth = synthetic_crowd(confusions, n_items=1500, per_item=3, seed=4)
    data = LabelMatrix.from_triples(triples)
    fit = fit_dawid_skene(data)
    assert fit.confusion.shape == (6, 4, 4)
    assert accuracy(fit.labels(), truth) > accuracy(majority_vote(data), truth) + 0.05


def test_it_beats_majority_vote_when_a_group_of_workers_is_adversarial() -> None:
    honest = [symmetric_confusion(0.75, 2)] * 7
    adversarial = [symmetric_confusion(0.1, 2)] * 3
    triples, truth = synthetic_crowd(honest + adversarial, n_items=500, per_item=10, seed=3)
    data = LabelMatrix.from_triples(triples)
    fit = fit_dawid_skene(data)
    assert accuracy(majority_vote(data), truth) < 0.7
    assert accuracy(fit.labels(), truth) > 0.97
    reliability = fit.worker_reliability()
    assert all(reliability[f"w{w:02d}"] < 0.2 for w in range(7, 10))
    assert all(0.65 < reliability[f"w{w:02d}"] < 0.85 for w in range(7))


def test_workers_with_a_single_answer_get_a_finite_reliability() -> None:
    triples, truth = synthetic_crowd(
        [symmetric_confusion(0.85, 2)] * 5, n_items=200, per_item=3, seed=5
    )
    triples += [("i00000", "lone-a", "c0"), ("i00001", "lone-b", "c1")]
    fit = fit_dawid_skene(LabelMatrix.from_triples(triples))
    reliability = fit.worker_reliability()
    assert 0.0 <= reliability["lone-a"] <= 1.0
    assert 0.0 <= reliability["lone-b"] <= 1.0
    assert np.all(np.isfinite(fit.posteriors))
    assert accuracy(fit.labels(), truth) > 0.9


def test_an_item_with_a_single_answer_follows_a_reliable_worker() -> None:
    triples, _ = synthetic_crowd([symmetric_confusion(0.9, 2)] * 4, n_items=300, per_item=4, seed=6)
    triples += [("solo-0", "w00", "c1"), ("solo-1", "w01", "c0")]
    fit = fit_dawid_skene(LabelMatrix.from_triples(triples))
    labels = fit.labels()
    assert (labels["solo-0"], labels["solo-1"]) == ("c1", "c0")
    row = fit.items.index("solo-0")
    assert fit.posteriors[row, 1] > 0.8


def test_a_perfectly_balanced_item_is_labelled_with_the_lower_class_code() -> None:
    fit = fit_dawid_skene(LabelMatrix.from_triples([("q", "amy", "yes"), ("q", "bob", "no")]))
    assert fit.posteriors[0].tolist() == [0.5, 0.5]
    assert fit.labels() == {"q": "no"}


def test_fitting_twice_or_in_another_answer_order_gives_the_same_model() -> None:
    triples, _ = synthetic_crowd(
        [symmetric_confusion(a, 3) for a in (0.9, 0.7, 0.5, 0.4)], n_items=400, per_item=3, seed=7
    )
    first = fit_dawid_skene(LabelMatrix.from_triples(triples))
    again = fit_dawid_skene(LabelMatrix.from_triples(triples))
    np.testing.assert_array_equal(first.posteriors, again.posteriors)
    np.testing.assert_array_equal(first.confusion, again.confusion)
    assert first.log_likelihood == again.log_likelihood
    shuffled = list(triples)
    random.Random(8).shuffle(shuffled)
    reordered = fit_dawid_skene(LabelMatrix.from_triples(shuffled))
    np.testing.assert_allclose(reordered.posteriors, first.posteriors, atol=1e-9)
    assert reordered.labels() == first.labels()


def test_it_stops_once_posteriors_stop_moving() -> None:
    triples, _ = synthetic_crowd([symmetric_confusion(0.9, 2)] * 5, n_items=200, per_item=5, seed=9)
    fit = fit_dawid_skene(LabelMatrix.from_triples(triples), tol=1e-6)
    assert fit.converged
    assert fit.iterations > 1
    assert fit.iterations < 100


def test_max_iter_caps_the_iterations_and_reports_no_convergence() -> None:
    triples, _ = synthetic_crowd(
        [symmetric_confusion(0.7, 2)] * 5, n_items=200, per_item=3, seed=10
    )
    fit = fit_dawid_skene(LabelMatrix.from_triples(triples), max_iter=2, tol=0.0)
    assert fit.iterations == 2
    assert not fit.converged


def test_without_smoothing_each_iteration_never_lowers_the_likelihood() -> None:
    triples, _ = synthetic_crowd(
        [symmetric_confusion(a, 2) for a in (0.95, 0.8, 0.6, 0.55)],
        n_items=150,
        per_item=2,
        seed=11,
    )
    data = LabelMatrix.from_triples(triples)
    likelihoods = [
        fit_dawid_skene(data, max_iter=n, tol=0.0, smoothing=0.0).log_likelihood
        for n in range(1, 15)
    ]
    assert all(later >= earlier - 1e-9 for earlier, later in itertools.pairwise(likelihoods))
    assert all(np.isfinite(likelihoods))


def test_worker_reliability_is_the_prior_weighted_diagonal() -> None:
    triples, _ = synthetic_crowd(
        [symmetric_confusion(0.8, 2)] * 4, n_items=100, per_item=2, seed=12
    )
    fit = fit_dawid_skene(LabelMatrix.from_triples(triples))
    expected = fit.priors[0] * fit.confusion[2, 0, 0] + fit.priors[1] * fit.confusion[2, 1, 1]
    assert fit.worker_reliability()["w02"] == pytest.approx(expected)


def test_the_fitted_arrays_are_read_only() -> None:
    fit = fit_dawid_skene(LabelMatrix.from_triples([("q", "amy", "yes")]))
    with pytest.raises(ValueError, match="read-only"):
        fit.posteriors[0, 0] = 0.0


def test_an_item_without_answers_gets_the_class_priors() -> None:
    idx = np.array([0, 0], dtype=np.intp)
    data = LabelMatrix(("q1", "q2"), ("w",), ("a", "b"), idx, idx, np.array([0, 0]))
    fit = fit_dawid_skene(data)
    np.testing.assert_allclose(fit.posteriors[1], fit.priors)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"max_iter": 0}, "max_iter"),
        ({"tol": -1.0}, "tol"),
        ({"tol": float("nan")}, "tol"),
        ({"smoothing": -0.1}, "smoothing"),
    ],
)
def test_bad_options_are_rejected(options: dict[str, float], field: str) -> None:
    data = LabelMatrix.from_triples([("q", "amy", "yes")])
    with pytest.raises(ValidationError) as caught:
        fit_dawid_skene(data, **options)  # type: ignore[arg-type]
    assert caught.value.context["field"] == field


def test_fitting_no_answers_is_rejected() -> None:
    with pytest.raises(ValidationError, match="at least one answer"):
        fit_dawid_skene(LabelMatrix.from_triples([]))
