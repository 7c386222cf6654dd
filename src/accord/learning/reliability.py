"""Agent reliability learnt from Accord's own case history, without any ground truth."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from accord.learning.dawid_skene import fit_dawid_skene
from accord.learning.label_data import LabelMatrix
from accord.learning.one_coin import fit_one_coin

UNKNOWN_RELIABILITY = 0.5


def estimate_reliability(
    case_votes: Iterable[tuple[str, str, str]], *, min_answers: int = 3, smoothing: float = 0.01
) -> dict[str, float]:
    """Each agent's expected accuracy from ``(case_id, agent, label)`` votes via Dawid–Skene.

    Agents with fewer than ``min_answers`` votes get ``0.5``: too little history to judge.
    """
    data = LabelMatrix.from_triples(case_votes)
    if data.n_answers == 0:
        return {}
    fitted = fit_dawid_skene(data, smoothing=smoothing).worker_reliability()
    answered = Counter(int(w) for w in data.worker_idx)
    return {
        agent: fitted[agent] if answered[code] >= min_answers else UNKNOWN_RELIABILITY
        for code, agent in enumerate(data.workers)
    }


def estimate_case_reliability(
    case_votes: Iterable[tuple[str, str, str]], *, min_answers: int = 3
) -> dict[str, float]:
    """Each agent's accuracy over Accord's own cases (one-coin model: answers differ per case).

    Agents with fewer than ``min_answers`` votes get ``0.5``.
    """
    votes = list(case_votes)
    fitted = fit_one_coin(votes).reliability()
    answered = Counter(agent for _, agent, _ in votes)
    return {
        agent: p if answered[agent] >= min_answers else UNKNOWN_RELIABILITY
        for agent, p in fitted.items()
    }
