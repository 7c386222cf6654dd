"""Scoring aggregation against ground truth: labels are inferred first, truth is read last."""

from __future__ import annotations

import time
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict

from accord.learning.aggregate import majority_vote
from accord.learning.crowd_dataset import CrowdDataset
from accord.learning.dawid_skene import fit_dawid_skene
from accord.learning.numeric import aggregate_mean, fit_numeric_reliability, mae, rmse


class CrowdEvaluation(BaseModel):
    """Accuracy (categorical) or error (numeric) of the plain and the reliability-weighted answer.

    ``truth_items`` counts the answered items that have a truth value; scores are over them.
    ``fit_seconds`` times the weighted fit alone (Dawid–Skene, or the numeric re-weighting).
    """

    model_config = ConfigDict(frozen=True)

    dataset: str
    numeric: bool
    items: int
    workers: int
    answers: int
    truth_items: int
    majority_accuracy: float | None
    weighted_accuracy: float | None
    fit_seconds: float
    iterations: int
    converged: bool
    mae_mean: float | None = None
    rmse_mean: float | None = None
    mae_weighted: float | None = None
    rmse_weighted: float | None = None


def _accuracy(predicted: Mapping[str, str], truth: Mapping[str, str]) -> float | None:
    scored = [item for item in predicted if item in truth]
    if not scored:
        return None
    return sum(predicted[item] == truth[item] for item in scored) / len(scored)


def _evaluate_categorical(dataset: CrowdDataset) -> CrowdEvaluation:
    data = dataset.label_matrix()
    plain = majority_vote(data)
    began = time.perf_counter()
    fit = fit_dawid_skene(data)
    seconds = time.perf_counter() - began
    weighted = fit.labels()
    return CrowdEvaluation(
        dataset=dataset.name,
        numeric=False,
        items=data.n_items,
        workers=data.n_workers,
        answers=data.n_answers,
        truth_items=sum(item in dataset.truth for item in data.items),
        majority_accuracy=_accuracy(plain, dataset.truth),
        weighted_accuracy=_accuracy(weighted, dataset.truth),
        fit_seconds=seconds,
        iterations=fit.iterations,
        converged=fit.converged,
    )


def _evaluate_numeric(dataset: CrowdDataset) -> CrowdEvaluation:
    answers = dataset.numeric_answers()
    latest = {(item, worker): value for item, worker, value in answers}
    by_item: dict[str, list[float]] = {}
    for (item, _), value in latest.items():
        by_item.setdefault(item, []).append(value)
    plain = aggregate_mean(by_item)
    began = time.perf_counter()
    fit = fit_numeric_reliability(answers)
    seconds = time.perf_counter() - began
    truth = {item: float(value) for item, value in dataset.truth.items()}
    scored = sum(item in truth for item in by_item)
    return CrowdEvaluation(
        dataset=dataset.name,
        numeric=True,
        items=len(by_item),
        workers=len({worker for _, worker in latest}),
        answers=len(latest),
        truth_items=scored,
        majority_accuracy=None,
        weighted_accuracy=None,
        fit_seconds=seconds,
        iterations=fit.iterations,
        converged=fit.converged,
        mae_mean=mae(plain, truth) if scored else None,
        rmse_mean=rmse(plain, truth) if scored else None,
        mae_weighted=mae(fit.estimates, truth) if scored else None,
        rmse_weighted=rmse(fit.estimates, truth) if scored else None,
    )


def evaluate_dataset(dataset: CrowdDataset) -> CrowdEvaluation:
    """Fit on the answers alone, then score both aggregates on the items with a truth value."""
    if dataset.numeric:
        return _evaluate_numeric(dataset)
    return _evaluate_categorical(dataset)
