"""Votes: plain majority over a label matrix, weighted votes, and reliability weights."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
from pydantic import BaseModel, ConfigDict

from accord.errors import ValidationError
from accord.learning.label_data import LabelMatrix

MAX_WEIGHT = 10.0


class VoteOutcome(BaseModel):
    """The result of a weighted vote: ``winner`` is None when the top scores tie exactly."""

    model_config = ConfigDict(frozen=True)

    winner: str | None
    scores: dict[str, float]
    margin: float


def majority_vote(data: LabelMatrix) -> dict[str, str]:
    """The most frequent label of each item; ties go to the lower class code."""
    best = np.argmax(data.answer_counts(), axis=1)
    return {item: data.classes[int(code)] for item, code in zip(data.items, best, strict=True)}


def weighted_vote(
    votes: Mapping[str, str], weights: Mapping[str, float], default_weight: float = 1.0
) -> VoteOutcome:
    """Sum each label's voters' weights; ``margin`` is the lead of the top label over the next.

    Agents missing from ``weights`` weigh ``default_weight``; weights must be finite and
    non-negative.
    """
    scores: dict[str, float] = {}
    for agent, label in votes.items():
        weight = float(weights.get(agent, default_weight))
        if not (math.isfinite(weight) and weight >= 0.0):
            raise ValidationError(
                f"weight of {agent!r} must be finite and non-negative", field="weights", agent=agent
            )
        scores[label] = scores.get(label, 0.0) + weight
    ranked = sorted(scores.values(), reverse=True)
    if not ranked:
        return VoteOutcome(winner=None, scores={}, margin=0.0)
    runner_up = ranked[1] if len(ranked) > 1 else 0.0
    margin = ranked[0] - runner_up
    winner = None if len(ranked) > 1 and margin == 0.0 else max(scores, key=scores.__getitem__)
    return VoteOutcome(winner=winner, scores=scores, margin=margin)


def reliability_weights(reliability: Mapping[str, float], n_classes: int = 2) -> dict[str, float]:
    """Log-odds weights ``log(K−1) + log(p / (1−p))`` clipped to ``[0, 10]``.

    For independent voters who are right with probability ``p`` and otherwise pick a wrong
    class uniformly, these weights make the weighted vote the most probable label.
    """
    if n_classes < 2:
        raise ValidationError("a vote needs at least two classes", field="n_classes")
    out: dict[str, float] = {}
    for agent, p in reliability.items():
        if not 0.0 <= p <= 1.0:
            raise ValidationError(
                f"reliability of {agent!r} must lie in [0, 1]", field="reliability", agent=agent
            )
        if p == 1.0:
            out[agent] = MAX_WEIGHT
        elif p == 0.0:
            out[agent] = 0.0
        else:
            raw = math.log(n_classes - 1) + math.log(p) - math.log1p(-p)
            out[agent] = min(max(raw, 0.0), MAX_WEIGHT)
    return out
