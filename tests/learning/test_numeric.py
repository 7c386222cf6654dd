from __future__ import annotations

import math

import numpy as np
import pytest

from accord.errors import ValidationError
from accord.learning import aggregate_mean, fit_numeric_reliability, mae, rmse

NumericTriple = tuple[str, str, float]


def _noisy_crowd(seed: int) -> tuple[list[NumericTriple], dict[str, float]]:
    rng = np.random.default_rng(seed)
    sigmas = {"careful-1": 0.5, "careful-2": 0.5, "plain": 1.0, "reckless": 20.0}
    truth = {f"q{i:03d}": float(rng.normal(100.0, 10.0)) for i in range(300)}
    triples = [
        (item, worker, value + float(rng.normal(0.0, sigma)))
        for item, value in truth.items()
        for worker, sigma in sigmas.items()
    ]
    return triples, truth


def _by_item(triples: list[NumericTriple]) -> dict[str, list[float]]:
    grouped: dict[str, list[float]] = {}
    for item, _, value in triples:
        grouped.setdefault(item, []).append(value)
    return grouped


def test_the_weighted_consensus_beats_the_mean_with_one_very_noisy_worker() -> None:
    triples, truth = _noisy_crowd(seed=1)
    mean = aggregate_mean(_by_item(triples))
    fit = fit_numeric_reliability(triples)
    assert mae(fit.estimates, truth) < mae(mean, truth) / 5
    assert rmse(fit.estimates, truth) < rmse(mean, truth) / 5
    assert fit.converged


def test_it_estimates_each_workers_error_variance() -> None:
    triples, _ = _noisy_crowd(seed=2)
    variances = fit_numeric_reliability(triples).variances
    assert variances["careful-1"] == pytest.approx(0.25, rel=0.4)
    assert variances["plain"] == pytest.approx(1.0, rel=0.4)
    assert variances["reckless"] == pytest.approx(400.0, rel=0.3)


def test_an_item_with_one_answer_takes_that_answer() -> None:
    triples, _ = _noisy_crowd(seed=3)
    fit = fit_numeric_reliability([*triples, ("solo", "plain", 42.0)])
    assert fit.estimates["solo"] == pytest.approx(42.0)


def test_a_repeated_answer_keeps_the_last() -> None:
    fit = fit_numeric_reliability([("q", "a", 1.0), ("q", "a", 3.0)])
    assert fit.estimates == {"q": 3.0}


def test_unanimous_answers_are_their_own_consensus() -> None:
    fit = fit_numeric_reliability([("q", "a", 5.0), ("q", "b", 5.0), ("r", "a", 7.0)])
    assert fit.estimates == pytest.approx({"q": 5.0, "r": 7.0})
    assert all(math.isfinite(v) and v > 0 for v in fit.variances.values())


def test_no_answers_give_an_empty_consensus() -> None:
    fit = fit_numeric_reliability([])
    assert (fit.estimates, fit.variances, fit.iterations) == ({}, {}, 0)


def test_a_non_finite_answer_is_rejected() -> None:
    with pytest.raises(ValidationError, match="not finite"):
        fit_numeric_reliability([("q", "a", math.nan)])


@pytest.mark.parametrize("options", [{"max_iter": 0}, {"prior_strength": 0.0}])
def test_bad_options_are_rejected(options: dict[str, float]) -> None:
    with pytest.raises(ValidationError):
        fit_numeric_reliability([("q", "a", 1.0)], **options)  # type: ignore[arg-type]


def test_the_mean_of_each_item_is_exact() -> None:
    assert aggregate_mean({"q": [0.1, 0.2, 0.3]}) == {"q": pytest.approx(0.2)}


def test_an_item_without_values_has_no_mean() -> None:
    with pytest.raises(ValidationError, match="no answers"):
        aggregate_mean({"q": []})


def test_mae_and_rmse_score_the_shared_items() -> None:
    estimates = {"a": 1.0, "b": 5.0, "extra": 100.0}
    truth = {"a": 2.0, "b": 2.0, "unanswered": 0.0}
    assert mae(estimates, truth) == pytest.approx(2.0)
    assert rmse(estimates, truth) == pytest.approx(math.sqrt(5.0))


def test_errors_need_at_least_one_shared_item() -> None:
    with pytest.raises(ValidationError, match="no item"):
        mae({"a": 1.0}, {"b": 1.0})
