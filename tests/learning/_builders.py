"""Synthetic crowds with known truth and known confusion matrices, and case outcomes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from accord.learning import CaseOutcome

Triple = tuple[str, str, str]


def symmetric_confusion(accuracy: float, k: int) -> NDArray[np.float64]:
    """Right with probability ``accuracy``, otherwise a uniformly chosen wrong class."""
    matrix = np.full((k, k), (1.0 - accuracy) / (k - 1))
    np.fill_diagonal(matrix, accuracy)
    return matrix


def synthetic_crowd(
    confusions: Sequence[NDArray[np.float64]],
    *,
    n_items: int,
    per_item: int,
    seed: int,
    priors: Sequence[float] | None = None,
) -> tuple[list[Triple], dict[str, str]]:
    """Answers of workers ``w0, w1, …`` drawn from their confusion matrices, and the truth.

    Each item is answered by ``per_item`` distinct workers chosen at random; classes are
    named ``c0, c1, …`` so that their codes follow their indices.
    """
    rng = np.random.default_rng(seed)
    k = confusions[0].shape[0]
    p = np.full(k, 1.0 / k) if priors is None else np.asarray(priors)
    truth_codes = rng.choice(k, size=n_items, p=p)
    triples: list[Triple] = []
    for item, true_code in enumerate(truth_codes):
        for worker in rng.choice(len(confusions), size=per_item, replace=False):
            label = rng.choice(k, p=confusions[worker][true_code])
            triples.append((f"i{item:05d}", f"w{worker:02d}", f"c{label}"))
    truth = {f"i{item:05d}": f"c{code}" for item, code in enumerate(truth_codes)}
    return triples, truth


def write_crowd(directory: Path, triples: Sequence[Triple], truth: dict[str, str]) -> Path:
    """A crowd folder as ``accord eval crowd`` reads it: ``answers.csv`` and ``truth.csv``."""
    directory.mkdir(parents=True, exist_ok=True)
    answers = ["question,worker,answer", *(",".join(row) for row in triples)]
    truths = ["question,truth", *(f"{item},{label}" for item, label in truth.items())]
    (directory / "answers.csv").write_text("\n".join(answers) + "\n", encoding="utf-8")
    (directory / "truth.csv").write_text("\n".join(truths) + "\n", encoding="utf-8")
    return directory


def experts_and_spammers(directory: Path, *, seed: int = 7) -> Path:
    """A binary crowd where majority vote is fooled: 2 experts (0.95) among 5 near-coin-flippers.

    600 items, 5 answers each (odd, so majority vote never ties); classes ``c0`` and ``c1``.
    """
    confusions = [symmetric_confusion(0.95, 2)] * 2 + [symmetric_confusion(0.55, 2)] * 5
    triples, truth = synthetic_crowd(confusions, n_items=600, per_item=5, seed=seed)
    return write_crowd(directory, triples, truth)


def accuracy(predicted: dict[str, str], truth: dict[str, str]) -> float:
    """Share of items whose predicted label equals the truth."""
    return sum(predicted[item] == label for item, label in truth.items()) / len(truth)


START = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def outcome(
    case_id: str,
    *,
    winner: str | None = "agent:a",
    losers: tuple[str, ...] = ("agent:b",),
    winners: tuple[str, ...] = (),
    task_type: str = "invoicing",
    kind: str = "numerical_inconsistency",
    severity: str = "major",
    strategy: str = "confidence_based",
    escalated: bool = False,
    cause: str | None = None,
    day: int = 0,
    at: datetime | None = None,
) -> CaseOutcome:
    """A settled case with sensible defaults."""
    return CaseOutcome(
        case_id=case_id,
        task_type=task_type,
        kind=kind,
        severity=severity,
        strategy=strategy,
        winner=winner,
        winners=winners,
        losers=losers,
        escalated=escalated,
        cause=cause,
        decided_at=at or START + timedelta(days=day),
    )
