"""Dawid–Skene: per-worker confusion matrices and true labels by EM, without ground truth.

Dawid & Skene (1979). The fit is vectorized with numpy: each iteration is a handful of
``bincount`` calls over all answers, with posteriors computed in log space.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from accord.errors import ValidationError
from accord.learning.label_data import LabelMatrix

FloatArray = NDArray[np.float64]

_TINY = float(np.finfo(np.float64).tiny)


@dataclass(frozen=True, eq=False)
class DawidSkeneResult:
    """A fitted model: item posteriors, worker confusion matrices, class priors.

    ``confusion[w, k, l]`` is the probability that worker ``w`` answers class ``l`` when
    the truth is class ``k``; ``posteriors[i, k]`` is the probability that item ``i`` is
    class ``k``. ``log_likelihood`` is the observed-data log-likelihood of the final
    parameters; ``converged`` says whether no posterior moved by more than ``tol``.
    """

    items: tuple[str, ...]
    workers: tuple[str, ...]
    classes: tuple[str, ...]
    posteriors: FloatArray
    confusion: FloatArray
    priors: FloatArray
    iterations: int
    converged: bool
    log_likelihood: float

    def labels(self) -> dict[str, str]:
        """Most probable class of each item; ties go to the lower class code."""
        best = np.argmax(self.posteriors, axis=1)
        return {item: self.classes[int(code)] for item, code in zip(self.items, best, strict=True)}

    def worker_reliability(self) -> dict[str, float]:
        """Each worker's expected accuracy under the class priors: ``Σ_k prior_k · π_w[k, k]``."""
        diagonal = np.diagonal(self.confusion, axis1=1, axis2=2)
        accuracy = diagonal @ self.priors
        return {worker: float(a) for worker, a in zip(self.workers, accuracy, strict=True)}


def _class_sum(values: FloatArray) -> FloatArray:
    """Sum over the class axis in sorted order: renaming classes then permutes results exactly."""
    ordered = values if values.shape[-1] <= 2 else np.sort(values, axis=-1)  # a + b == b + a
    summed: FloatArray = ordered.sum(axis=-1, keepdims=True)
    return summed


def _soft_majority(data: LabelMatrix) -> FloatArray:
    counts = data.answer_counts().astype(np.float64)
    totals = counts.sum(axis=1, keepdims=True)
    uniform: FloatArray = np.full_like(counts, 1.0 / data.n_classes)
    np.divide(counts, totals, out=uniform, where=totals > 0)
    return uniform


def _m_step(
    data: LabelMatrix, posteriors: FloatArray, cells: NDArray[np.intp], smoothing: float
) -> tuple[FloatArray, FloatArray]:
    k = data.n_classes
    weights = posteriors[data.item_idx].ravel()
    flat = np.bincount(cells, weights=weights, minlength=data.n_workers * k * k)
    counts = flat.reshape(data.n_workers, k, k).astype(np.float64) + smoothing
    rows = _class_sum(counts)
    uniform = np.full_like(counts, 1.0 / k)
    confusion = np.divide(counts, rows, out=uniform, where=rows > 0)
    priors = (posteriors.sum(axis=0) + smoothing) / (data.n_items + k * smoothing)
    return confusion, priors


def _e_step(
    data: LabelMatrix, confusion: FloatArray, priors: FloatArray, answer_rows: NDArray[np.intp]
) -> tuple[FloatArray, float]:
    k = data.n_classes
    # log_table[w * K + l, k] = log π_w[k, l]: one gather gives every answer's K terms.
    log_table = np.log(np.maximum(confusion, _TINY)).transpose(0, 2, 1).reshape(-1, k)
    terms = log_table[answer_rows]
    joint = np.empty((data.n_items, k))
    for code in range(k):
        joint[:, code] = np.bincount(data.item_idx, weights=terms[:, code], minlength=data.n_items)
    joint += np.log(np.maximum(priors, _TINY))
    peak = joint.max(axis=1, keepdims=True)
    shifted = np.exp(joint - peak)
    total = _class_sum(shifted)
    log_likelihood = float((peak + np.log(total)).sum())
    return shifted / total, log_likelihood


def fit_dawid_skene(
    data: LabelMatrix, *, max_iter: int = 100, tol: float = 1e-5, smoothing: float = 0.01
) -> DawidSkeneResult:
    """Fit Dawid–Skene by EM, starting from the soft majority vote.

    Each iteration re-estimates confusion matrices and priors from the current posteriors
    (``smoothing`` is a pseudo-count added to every confusion cell and prior), then the
    posteriors from those. It stops when no posterior changes by more than ``tol`` or
    after ``max_iter`` iterations. The model is identified only up to renaming classes: the
    majority-vote start picks the solution, so a crowd whose majority is usually wrong is
    fitted to the mirror image.
    """
    if data.n_answers == 0:
        raise ValidationError("Dawid–Skene needs at least one answer", field="data")
    if max_iter < 1:
        raise ValidationError("max_iter must be at least 1", field="max_iter")
    if not tol >= 0.0:
        raise ValidationError("tol must be a non-negative number", field="tol")
    if not smoothing >= 0.0:
        raise ValidationError("smoothing must be a non-negative number", field="smoothing")
    k = data.n_classes
    classes = np.arange(k, dtype=np.intp)
    cells = (
        (data.worker_idx[:, None] * k + classes[None, :]) * k + data.label_idx[:, None]
    ).ravel()
    answer_rows = data.worker_idx * k + data.label_idx
    posteriors = _soft_majority(data)
    iterations, converged = 0, False
    while iterations < max_iter and not converged:
        confusion, priors = _m_step(data, posteriors, cells, smoothing)
        updated, log_likelihood = _e_step(data, confusion, priors, answer_rows)
        converged = bool(np.max(np.abs(updated - posteriors)) <= tol)
        posteriors = updated
        iterations += 1
    for array in (posteriors, confusion, priors):
        array.setflags(write=False)
    return DawidSkeneResult(
        items=data.items,
        workers=data.workers,
        classes=data.classes,
        posteriors=posteriors,
        confusion=confusion,
        priors=priors,
        iterations=iterations,
        converged=converged,
        log_likelihood=log_likelihood,
    )
