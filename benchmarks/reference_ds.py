"""A same-run reference for the published Dawid–Skene figures (benchmark code, not product).

The published accuracies come from crowd-kit's ``DawidSkene`` (1.x). This re-implements the
estimator as that library documents it, so the figure Accord is held to is measured here on
the same data rather than read at three decimals from a paper:

- start from the soft majority vote; priors are the mean posterior (no pseudo-counts);
- M-step: each worker's confusion counts over the labels it actually gave, clipped below at
  1e-10 and normalized per true class;
- E-step in log space; stop when the evidence lower bound per answer improves by < 1e-5, or
  after 100 iterations; the label is the most probable class (first on ties).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from accord.learning import LabelMatrix

_EPS = 1e-10


@dataclass(frozen=True)
class ReferenceFit:
    labels: dict[str, str]
    iterations: int


def reference_dawid_skene(
    data: LabelMatrix, max_iter: int = 100, tol: float = 1e-5
) -> ReferenceFit:
    items, workers, labels = data.item_idx, data.worker_idx, data.label_idx
    n, m, k = data.n_items, data.n_workers, data.n_classes
    counts = np.zeros((n, k))
    np.add.at(counts, (items, labels), 1.0)
    posteriors = counts / counts.sum(axis=1, keepdims=True)
    observed = np.zeros((m, k), dtype=bool)
    observed[workers, labels] = True

    def m_step(post: np.ndarray) -> np.ndarray:
        errors = np.zeros((m, k, k))  # [worker, given label, true class]
        np.add.at(errors, (workers, labels), post[items])
        errors = np.where(observed[:, :, None], np.maximum(errors, _EPS), 0.0)
        return errors / errors.sum(axis=1, keepdims=True)

    def e_step(priors: np.ndarray, errors: np.ndarray) -> np.ndarray:
        log_like = np.zeros((n, k))
        np.add.at(log_like, items, np.log2(errors[workers, labels]))
        log_like += np.log2(priors)
        scaled = np.exp2(log_like - log_like.max(axis=1, keepdims=True))
        return scaled / scaled.sum(axis=1, keepdims=True)

    def elbo(post: np.ndarray, priors: np.ndarray, errors: np.ndarray) -> float:
        joint = (post[items] * (np.log(errors[workers, labels]) + np.log(priors))).sum()
        with np.errstate(divide="ignore", invalid="ignore"):
            entropy = -np.nansum(np.log(post) * post)
        return float(joint + entropy)

    priors = posteriors.mean(axis=0)
    errors = m_step(posteriors)
    loss, iterations = -np.inf, 0
    while iterations < max_iter:
        iterations += 1
        posteriors = e_step(priors, errors)
        priors = posteriors.mean(axis=0)
        errors = m_step(posteriors)
        new_loss = elbo(posteriors, priors, errors) / data.n_answers
        if new_loss - loss < tol:
            break
        loss = new_loss
    best = posteriors.argmax(axis=1)
    return ReferenceFit(
        labels={item: data.classes[int(c)] for item, c in zip(data.items, best, strict=True)},
        iterations=iterations,
    )
