"""Numeric answers: the plain mean, and a consensus weighted by each worker's estimated precision.

``fit_numeric_reliability`` alternates two steps. Each worker's error variance is estimated
from its leave-one-out residuals (its answer minus the consensus of the *other* answers on
the same item, so a worker cannot vouch for itself, less that consensus's own variance),
shrunk towards the median worker's variance by ``prior_strength`` pseudo-answers. Then each
item's consensus is the precision-weighted mean of its answers: the maximum-likelihood
estimate under independent Gaussian errors. The mean (rather than a weighted median) keeps
the leave-one-out residuals exact and cheap to compute.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict

from accord.errors import ValidationError

FloatArray = NDArray[np.float64]


class NumericConsensus(BaseModel):
    """Consensus value per item and estimated error variance per worker."""

    model_config = ConfigDict(frozen=True)

    estimates: dict[str, float]
    variances: dict[str, float]
    iterations: int
    converged: bool


def aggregate_mean(values_by_item: Mapping[str, Sequence[float]]) -> dict[str, float]:
    """The plain mean of each item's answers."""
    out: dict[str, float] = {}
    for item, values in values_by_item.items():
        if not values:
            raise ValidationError(f"item {item!r} has no answers", field="values_by_item")
        out[item] = math.fsum(values) / len(values)
    return out


def _precision_weighted(
    values: FloatArray, weights: FloatArray, item_idx: NDArray[np.intp], n_items: int
) -> tuple[FloatArray, FloatArray, FloatArray]:
    sums = np.bincount(item_idx, weights=weights * values, minlength=n_items).astype(np.float64)
    mass = np.bincount(item_idx, weights=weights, minlength=n_items).astype(np.float64)
    return sums / mass, sums, mass


def _worker_variances(
    values: FloatArray,
    weights: FloatArray,
    sums: FloatArray,
    mass: FloatArray,
    item_idx: NDArray[np.intp],
    worker_idx: NDArray[np.intp],
    n_workers: int,
    prior_strength: float,
    *,
    weights_are_precisions: bool,
) -> FloatArray:
    others = mass[item_idx] - weights
    informative = others > 0
    safe = np.where(informative, others, 1.0)
    leave_one_out = (sums[item_idx] - weights * values) / safe
    squared = np.where(informative, (values - leave_one_out) ** 2, 0.0)
    if weights_are_precisions:
        # The leave-one-out consensus has variance 1 / others: remove it from the residual.
        squared = np.where(informative, squared - 1.0 / safe, 0.0)
    sse = np.bincount(worker_idx, weights=squared, minlength=n_workers)
    seen = np.bincount(worker_idx, weights=informative.astype(np.float64), minlength=n_workers)
    raw = np.maximum(sse, 0.0) / np.maximum(seen, 1.0)
    typical = float(np.median(raw[seen > 0])) if np.any(seen > 0) else 0.0
    floor = max(typical * 1e-6, 1e-300)
    typical = max(typical, floor)
    variances = (sse + prior_strength * typical) / (seen + prior_strength)
    return np.maximum(variances, floor)


def fit_numeric_reliability(
    triples: Iterable[tuple[str, str, float]],
    *,
    max_iter: int = 100,
    tol: float = 1e-9,
    prior_strength: float = 2.0,
) -> NumericConsensus:
    """Iteratively re-weighted consensus of ``(item, worker, value)`` answers (see the module).

    A repeated (item, worker) keeps the last answer. Stops when no consensus moves by more
    than ``tol`` times the spread of the answers, or after ``max_iter`` iterations.
    """
    if max_iter < 1:
        raise ValidationError("max_iter must be at least 1", field="max_iter")
    if not prior_strength > 0.0:
        raise ValidationError("prior_strength must be positive", field="prior_strength")
    latest: dict[tuple[str, str], float] = {}
    for item, worker, value in triples:
        number = float(value)
        if not math.isfinite(number):
            raise ValidationError(
                f"answer of {worker!r} on {item!r} is not finite", item=item, worker=worker
            )
        latest.pop((item, worker), None)
        latest[(item, worker)] = number
    if not latest:
        return NumericConsensus(estimates={}, variances={}, iterations=0, converged=True)
    items = sorted({item for item, _ in latest})
    workers = sorted({worker for _, worker in latest})
    item_code = {name: code for code, name in enumerate(items)}
    worker_code = {name: code for code, name in enumerate(workers)}
    item_idx = np.array([item_code[item] for item, _ in latest], dtype=np.intp)
    worker_idx = np.array([worker_code[worker] for _, worker in latest], dtype=np.intp)
    values = np.array(list(latest.values()), dtype=np.float64)
    scale = max(float(np.ptp(values)), 1e-300)

    weights = np.ones_like(values)
    consensus, sums, mass = _precision_weighted(values, weights, item_idx, len(items))
    variances = np.ones(len(workers))
    iterations, converged = 0, False
    while iterations < max_iter and not converged:
        variances = _worker_variances(
            values,
            weights,
            sums,
            mass,
            item_idx,
            worker_idx,
            len(workers),
            prior_strength,
            weights_are_precisions=iterations > 0,
        )
        weights = 1.0 / variances[worker_idx]
        updated, sums, mass = _precision_weighted(values, weights, item_idx, len(items))
        converged = bool(np.max(np.abs(updated - consensus)) <= tol * scale)
        consensus = updated
        iterations += 1
    return NumericConsensus(
        estimates={item: float(v) for item, v in zip(items, consensus, strict=True)},
        variances={worker: float(v) for worker, v in zip(workers, variances, strict=True)},
        iterations=iterations,
        converged=converged,
    )


def _paired(estimates: Mapping[str, float], truth: Mapping[str, float]) -> FloatArray:
    shared = [item for item in estimates if item in truth]
    if not shared:
        raise ValidationError("no item has both an estimate and a truth value", field="truth")
    return np.array([estimates[item] - truth[item] for item in shared], dtype=np.float64)


def mae(estimates: Mapping[str, float], truth: Mapping[str, float]) -> float:
    """Mean absolute error over the items present in both mappings."""
    return float(np.mean(np.abs(_paired(estimates, truth))))


def rmse(estimates: Mapping[str, float], truth: Mapping[str, float]) -> float:
    """Root-mean-square error over the items present in both mappings."""
    return float(np.sqrt(np.mean(_paired(estimates, truth) ** 2)))
