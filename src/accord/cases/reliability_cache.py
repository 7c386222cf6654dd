"""Learned reliability weights for the vote rung, refit from case history as it grows.

A refit reads every past vote and runs Dawid–Skene over them, so its cost grows with the
history. Refitting after a fixed number of settles would make each settle's share of that
cost grow without bound (at a million cases, every thousandth settle re-reads them all);
refitting once the history has grown by a fraction keeps the share constant, and the weights
then rest on at least ``1 / (1 + growth)`` of the history there is.

From an event loop (:meth:`ReliabilityCache.weights_async`, which ``settle_async`` and so the
HTTP service use) a fit runs as a task of that loop that reads the history a page per loop
turn, and a due refit runs so in the background while settles go on with the weights they had:
a refit's cost grows with the history (50-70 ms at 12,000 votes on a 2-core machine), and in
one piece it would hold every request on the loop for that long. Not on a worker thread: a
thread doing Python work holds the GIL for up to its switch interval each time the loop lets
go of it (at every database call), which measured no better than the stall (issue 13).
Even in turns a refit's work delays every request in flight by its whole cost, so a server
hands due refits to a :class:`RefitWorker` instead (``accord.cases.refit_process``: a
worker process that reads the history from the database itself) and the loop only awaits
the weights; the first fit, which callers wait for anyway, still runs in turns.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from accord.learning import estimate_case_reliability, reliability_weights
from accord.log import get_logger

log = get_logger("accord.cases")


class VoteHistory(Protocol):
    """Where past conflicts' votes come from (the case store)."""

    def votes(self) -> Sequence[tuple[str, str, str]]:
        """Every past conflict's answers as (case id, agent, answer)."""
        ...

    def vote_pages(self) -> Iterator[Sequence[tuple[str, str, str]]]:
        """The same votes, a page of them per short read."""
        ...


@dataclass(frozen=True)
class FittedWeights:
    """One fit's outcome: the weights, and how many cases they were fitted on."""

    weights: dict[str, float]
    cases: int


class RefitWorker(Protocol):
    """Where a due refit runs instead of on the event loop (e.g. a worker process)."""

    async def fit(self) -> FittedWeights:
        """A fit over the whole history as it is now."""
        ...

    def close(self) -> None:
        """Stop, releasing what the worker holds."""
        ...


class VoteWeights(Protocol):
    """Where the vote rung's per-agent weights come from (a :class:`ReliabilityCache`, or
    :class:`FixedWeights`)."""

    def weights(self) -> Mapping[str, float]:
        """The weights now (may do blocking work first, e.g. a refit)."""
        ...

    async def weights_async(self) -> Mapping[str, float]:
        """As :meth:`weights`, without blocking the event loop it is awaited on."""
        ...


class FixedWeights:
    """The same weights for every case (none by default: every agent counts 1)."""

    def __init__(self, weights: Mapping[str, float] | None = None) -> None:
        self._weights = dict(weights or {})

    def weights(self) -> Mapping[str, float]:
        return self._weights

    async def weights_async(self) -> Mapping[str, float]:
        return self._weights


class ReliabilityCache:
    """Fits Dawid–Skene over past conflicts lazily, and again after ``refit_every`` settles
    or once the history grew by ``refit_growth`` of the cases fitted, whichever comes later
    (``refit_growth=0``: every ``refit_every`` settles, however long the history).
    ``refits``: where :meth:`weights_async` runs a due refit (None: in turns on its loop)."""

    def __init__(
        self,
        store: VoteHistory,
        *,
        refit_every: int,
        min_answers: int,
        refit_growth: float = 0.0,
        refits: RefitWorker | None = None,
    ) -> None:
        self.store = store
        self._refits = refits
        self.refit_every = refit_every
        self.refit_growth = refit_growth
        self.min_answers = min_answers
        self._weights: dict[str, float] | None = None
        self._since_fit = 0
        self._due_after = refit_every
        self._fitting: asyncio.Task[None] | None = None  # weights_async's, on its loop

    @property
    def due_after(self) -> int:
        """Settles after the last fit that make the next one (for reports and tests)."""
        return self._due_after

    @property
    def refits(self) -> RefitWorker | None:
        """Where due refits from an event loop run (None: in turns on the loop)."""
        return self._refits

    @property
    def refitting(self) -> bool:
        """Whether a fit of :meth:`weights_async` is running (for monitoring)."""
        return self._fitting is not None and not self._fitting.done()

    def weights(self) -> Mapping[str, float]:
        """Current weights (fitting first if stale); agents without history are absent."""
        if self._weights is None or self._since_fit >= self._due_after:
            self.refit()
        self._since_fit += 1
        assert self._weights is not None
        return self._weights

    async def weights_async(self) -> Mapping[str, float]:
        """As :meth:`weights`, from an event loop, which no fit holds for longer than one
        page of the history (and the estimate over it): a fit is a task of the loop that reads
        a page per turn. Callers wait for the first fit; once fitted, a due refit runs in the
        background (one at a time) and callers get the current weights meanwhile. A background
        refit that fails is logged (``reliability.refit_failed``) and tried again by the next
        call; a first fit that fails raises."""
        due = self._weights is None or self._since_fit >= self._due_after
        if due and not self.refitting:
            refit = self._fit_in_turns() if self._weights is None else self._refit_async()
            self._fitting = asyncio.get_running_loop().create_task(refit)
        if self._weights is None:
            assert self._fitting is not None
            await asyncio.shield(self._fitting)
        self._since_fit += 1
        assert self._weights is not None
        return self._weights

    async def _refit_async(self) -> None:
        """A due refit from the loop: on the refit worker when there is one (falling back to
        turns of the loop when it fails), else in turns."""
        if self._refits is not None:
            try:
                self._apply(await self._refits.fit())
                return
            except Exception as exc:
                log.error("reliability.refit_failed", error=str(exc), where="refit worker")
        await self._fit_in_turns()

    async def _fit_in_turns(self) -> None:
        try:
            votes: list[tuple[str, str, str]] = []
            for page in self.store.vote_pages():
                votes.extend(page)
                await asyncio.sleep(0)  # the requests waiting on the loop go first
            self._fit(votes)
        except Exception as exc:
            if self._weights is None:  # the first fit: its callers see the failure
                raise
            log.error("reliability.refit_failed", error=str(exc))

    def refit(self) -> dict[str, float]:
        """Fit now, on cases with three or more agents only: when two agents disagree,
        nothing in the case says which one was right, so such cases cannot teach reliability
        (fitted anyway, they only echo the current estimates). Agents with fewer than
        ``min_answers`` such answers get no weight: the vote rung then counts them like agents
        without history (1), not at the 0 a coin-flip reliability of 0.5 would give them.
        """
        return self._fit(self.store.votes())

    def _fit(self, every_vote: Sequence[tuple[str, str, str]]) -> dict[str, float]:
        return self._apply(fitted_weights(every_vote, self.min_answers))

    def _apply(self, fitted: FittedWeights) -> dict[str, float]:
        self._weights = fitted.weights
        self._since_fit = 0
        self._due_after = max(self.refit_every, math.ceil(self.refit_growth * fitted.cases))
        return self._weights

    def close(self) -> None:
        """Stop the refit worker, if there is one (a later due refit runs in turns)."""
        refits, self._refits = self._refits, None
        if refits is not None:
            refits.close()

    def reliability(self) -> dict[str, float]:
        """Each agent's estimated accuracy (for reports)."""
        votes = informative_votes(self.store.votes())
        return estimate_case_reliability(votes, min_answers=self.min_answers)


def fitted_weights(every_vote: Sequence[tuple[str, str, str]], min_answers: int) -> FittedWeights:
    """The vote weights over ``every_vote`` (see :meth:`ReliabilityCache.refit`)."""
    votes = informative_votes(every_vote)
    answered = Counter(agent for _, agent, _ in votes)
    reliability = estimate_case_reliability(votes, min_answers=min_answers)
    known = {a: p for a, p in reliability.items() if answered[a] >= min_answers}
    weights = reliability_weights(known) if known else {}
    return FittedWeights(weights, len({case for case, _, _ in votes}))


def informative_votes(votes: Sequence[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The votes of cases where at least three agents answered."""
    voters = Counter(case for case, _, _ in votes)
    return [vote for vote in votes if voters[vote[0]] >= 3]
