"""Learned reliability weights for the vote rung, refit from case history as it grows.

A refit reads every past vote and runs Dawid–Skene over them, so its cost grows with the
history. Refitting after a fixed number of settles would make each settle's share of that
cost grow without bound (at a million cases, every thousandth settle re-reads them all);
refitting once the history has grown by a fraction keeps the share constant, and the weights
then rest on at least ``1 / (1 + growth)`` of the history there is.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Protocol

from accord.learning import estimate_case_reliability, reliability_weights


class VoteHistory(Protocol):
    """Where past conflicts' votes come from (the case store)."""

    def votes(self) -> Sequence[tuple[str, str, str]]:
        """Every past conflict's answers as (case id, agent, answer)."""
        ...


class ReliabilityCache:
    """Fits Dawid–Skene over past conflicts lazily, and again after ``refit_every`` settles
    or once the history grew by ``refit_growth`` of the cases fitted, whichever comes later
    (``refit_growth=0``: every ``refit_every`` settles, however long the history)."""

    def __init__(
        self,
        store: VoteHistory,
        *,
        refit_every: int,
        min_answers: int,
        refit_growth: float = 0.0,
    ) -> None:
        self.store = store
        self.refit_every = refit_every
        self.refit_growth = refit_growth
        self.min_answers = min_answers
        self._weights: dict[str, float] | None = None
        self._since_fit = 0
        self._due_after = refit_every

    @property
    def due_after(self) -> int:
        """Settles after the last fit that make the next one (for reports and tests)."""
        return self._due_after

    def weights(self) -> Mapping[str, float]:
        """Current weights (fitting first if stale); agents without history are absent."""
        if self._weights is None or self._since_fit >= self._due_after:
            self.refit()
        self._since_fit += 1
        assert self._weights is not None
        return self._weights

    def refit(self) -> dict[str, float]:
        """Fit now, on cases with three or more agents only: when two agents disagree,
        nothing in the case says which one was right, so such cases cannot teach reliability
        (fitted anyway, they only echo the current estimates). Agents with fewer than
        ``min_answers`` such answers get no weight: the vote rung then counts them like agents
        without history (1), not at the 0 a coin-flip reliability of 0.5 would give them.
        """
        votes = informative_votes(self.store.votes())
        answered = Counter(agent for _, agent, _ in votes)
        reliability = estimate_case_reliability(votes, min_answers=self.min_answers)
        known = {a: p for a, p in reliability.items() if answered[a] >= self.min_answers}
        self._weights = reliability_weights(known) if known else {}
        self._since_fit = 0
        fitted_cases = len({case for case, _, _ in votes})
        self._due_after = max(self.refit_every, math.ceil(self.refit_growth * fitted_cases))
        return self._weights

    def reliability(self) -> dict[str, float]:
        """Each agent's estimated accuracy (for reports)."""
        votes = informative_votes(self.store.votes())
        return estimate_case_reliability(votes, min_answers=self.min_answers)


def informative_votes(votes: Sequence[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The votes of cases where at least three agents answered."""
    voters = Counter(case for case, _, _ in votes)
    return [vote for vote in votes if voters[vote[0]] >= 3]
