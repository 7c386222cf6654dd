"""``ReliabilityCache``: learned vote weights, refit every N settles from the case history."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator

import pytest
from pydantic import ValidationError

from accord.cases import CaseStore, Settler, SettleStatus, TriageSettings
from accord.cases.reliability_cache import FittedWeights, FixedWeights, ReliabilityCache
from accord.clock import FrozenClock
from accord.config import LearningSettings
from accord.ledger import Ledger

from ._builders import pos as p
from ._builders import request


class History:
    """A stand-in case store: past conflicts as (case, agent, answer) votes; counts reads."""

    def __init__(self, votes: list[tuple[str, str, str]]) -> None:
        self.past = votes
        self.reads = 0

    def record(self, votes: list[tuple[str, str, str]]) -> None:
        """Cases settled since: their votes join the history."""
        self.past = [*self.past, *votes]

    page_size = 1000
    on_page: Callable[[], None] = staticmethod(lambda: None)

    def votes(self) -> list[tuple[str, str, str]]:
        self.reads += 1
        return list(self.past)

    def vote_pages(self) -> Iterator[list[tuple[str, str, str]]]:
        self.reads += 1
        past = list(self.past)
        for start in range(0, len(past), self.page_size):
            self.on_page()
            yield past[start : start + self.page_size]


def majority_and_contrarian(cases: int) -> list[tuple[str, str, str]]:
    """``steady``, ``m1`` and ``m2`` always agree; ``contrarian`` always answers otherwise."""
    return [
        (f"c{i}", agent, answer)
        for i in range(cases)
        for agent, answer in [("steady", "x"), ("m1", "x"), ("m2", "x"), ("contrarian", f"y{i}")]
    ]


def cache(
    history: History, *, refit_every: int = 3, min_answers: int = 3, growth: float = 0.0
) -> ReliabilityCache:
    return ReliabilityCache(
        history, refit_every=refit_every, min_answers=min_answers, refit_growth=growth
    )


def _reads_over(weights: ReliabilityCache, history: History, calls: int) -> list[int]:
    reads = []
    for _ in range(calls):
        weights.weights()
        reads.append(history.reads)
    return reads


def test_weights_are_fitted_on_first_use_then_again_after_refit_every_calls() -> None:
    history = History(majority_and_contrarian(5))
    weights = cache(history, refit_every=3)

    reads = []
    for _ in range(7):
        weights.weights()
        reads.append(history.reads)

    assert reads == [1, 1, 1, 2, 2, 2, 3]


def test_with_growth_a_long_history_is_refit_only_once_it_grew_by_that_fraction() -> None:
    history = History(majority_and_contrarian(40))  # 40 cases fitted
    weights = cache(history, refit_every=3, growth=0.25)

    reads = _reads_over(weights, history, 11)

    assert weights.due_after == 10  # 25 % of 40 cases, more than refit_every
    assert reads == [1] * 10 + [2]


def test_with_growth_a_short_history_is_still_refit_every_refit_every_settles() -> None:
    history = History(majority_and_contrarian(4))  # 10 % of 4 is less than 3
    weights = cache(history, refit_every=3, growth=0.1)

    assert _reads_over(weights, history, 7) == [1, 1, 1, 2, 2, 2, 3]
    assert weights.due_after == 3


def test_the_growth_schedule_follows_the_history_as_it_grows() -> None:
    history = History(majority_and_contrarian(10))
    weights = cache(history, refit_every=2, growth=0.5)
    weights.weights()
    assert weights.due_after == 5

    history.record(majority_and_contrarian(30))  # c0..c29: 30 distinct cases now
    _reads_over(weights, history, 5)  # the fifth call refits

    assert history.reads == 2
    assert weights.due_after == 15


def test_the_default_config_refits_on_growth_and_the_setting_is_validated() -> None:
    assert LearningSettings().refit_growth == 0.1
    with pytest.raises(ValidationError):
        LearningSettings(refit_growth=-0.5)


def test_a_refit_sees_history_written_since_the_last_fit() -> None:
    history = History([])
    weights = cache(history, refit_every=2)

    assert weights.weights() == {}
    history.record(majority_and_contrarian(6))
    assert weights.weights() == {}
    assert set(weights.weights()) == {"steady", "m1", "m2", "contrarian"}


def test_an_explicit_refit_restarts_the_count() -> None:
    history = History(majority_and_contrarian(5))
    weights = cache(history, refit_every=2)
    weights.weights()

    weights.refit()
    weights.weights()
    weights.weights()

    assert history.reads == 2


def test_an_agent_that_sides_with_the_majority_outweighs_one_that_always_dissents() -> None:
    weights = cache(History(majority_and_contrarian(8))).weights()

    assert weights["steady"] > weights["contrarian"]


def test_reliability_reports_each_agents_estimated_accuracy() -> None:
    reliability = cache(History(majority_and_contrarian(8))).reliability()

    assert reliability["steady"] > 0.8
    assert reliability["contrarian"] < 0.2


def test_agents_with_too_little_history_get_no_weight_rather_than_zero() -> None:
    votes = [*majority_and_contrarian(6), ("c0", "newbie", "x"), ("c1", "newbie", "x")]

    weights = cache(History(votes), min_answers=3).weights()

    assert "newbie" not in weights
    assert "steady" in weights


def learning_settler(
    ledger: Ledger, store: CaseStore, clock: FrozenClock, reliability: ReliabilityCache
) -> Settler:
    return Settler(
        ledger=ledger,
        store=store,
        clock=clock,
        settings=TriageSettings(),
        weights=reliability,
    )


def test_a_later_one_against_one_tie_goes_to_the_agent_with_the_better_record(
    ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    reliability = ReliabilityCache(store, refit_every=1, min_answers=3)
    settler = learning_settler(ledger, store, frozen_clock, reliability)
    for i in range(8):
        past = settler.settle(
            request(p("steady", 100 + i), p("m1", 100 + i), p("m2", 100 + i), p("contrarian", 900))
        )
        assert past.decision is not None
        assert past.decision.winners == ("steady", "m1", "m2")

    case = settler.settle(request(p("steady", 100), p("contrarian", 900)))

    assert case.status is SettleStatus.SETTLED
    assert case.decision is not None
    assert case.decision.rung == "vote"
    assert case.decision.winner == "steady"
    assert [a.detail for a in case.attempts][-1].startswith("reliability-weighted majority")


def test_two_agent_disagreements_teach_nothing_so_a_thin_record_cannot_decide_a_tie(
    ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    reliability = ReliabilityCache(store, refit_every=1, min_answers=3)
    settler = learning_settler(ledger, store, frozen_clock, reliability)
    for i in range(4):  # a beats b on confidence: says nothing about who is right
        settler.settle(request(p("a", 100 + i, 0.9), p("b", 500 + i, 0.2)))
    settler.settle(request(p("a", 1), p("b", 7), p("c", 7)))  # one informative case

    case = settler.settle(request(p("a", 100, 0.7), p("b", 900, 0.7)))

    assert case.status is SettleStatus.ESCALATED  # not "b by 100 % of the weight"
    assert reliability.weights() == {}


def test_without_learned_weights_the_same_one_against_one_case_escalates(
    settler: Settler,
) -> None:
    case = settler.settle(request(p("steady", 100), p("contrarian", 900)))

    assert case.status is SettleStatus.ESCALATED


def test_newcomers_with_a_little_history_still_decide_by_headcount(
    ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    reliability = ReliabilityCache(store, refit_every=1, min_answers=3)
    settler = learning_settler(ledger, store, frozen_clock, reliability)
    settler.settle(request(p("x", 1), p("y", 1), p("z", 50)))

    case = settler.settle(request(p("x", 7), p("y", 7), p("z", 70)))

    assert case.status is SettleStatus.SETTLED
    assert case.decision is not None
    assert case.decision.winners == ("x", "y")


async def settled(weights: ReliabilityCache) -> None:
    """Wait until no background refit runs."""
    for _ in range(1000):
        if not weights.refitting:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the background refit never finished")


def test_from_an_event_loop_the_first_fit_runs_once_for_concurrent_callers() -> None:
    history = History(majority_and_contrarian(6))
    weights = cache(history, refit_every=100)

    async def callers() -> list[dict[str, float]]:
        return [dict(w) for w in await asyncio.gather(*(weights.weights_async() for _ in range(5)))]

    got = asyncio.run(callers())

    assert history.reads == 1
    assert all(w == got[0] for w in got)
    assert set(got[0]) == {"steady", "m1", "m2", "contrarian"}


def test_from_an_event_loop_a_refit_reads_a_page_a_turn_while_callers_get_the_last_fit() -> None:
    history = History([])
    weights = cache(history, refit_every=2)

    async def scenario() -> tuple[list[dict[str, float]], list[str], dict[str, float]]:
        seen = [dict(await weights.weights_async()), dict(await weights.weights_async())]
        history.record(majority_and_contrarian(6))
        history.page_size = 4  # 24 votes: six pages
        order: list[str] = []
        history.on_page = lambda: order.append("page")

        async def other_request() -> None:
            for _ in range(3):
                order.append("request")
                seen.append(dict(await weights.weights_async()))  # the first one starts it
                await asyncio.sleep(0)

        await other_request()
        await settled(weights)
        return seen, order, dict(await weights.weights_async())

    seen, order, after = asyncio.run(scenario())

    assert seen == [{}, {}, {}, {}, {}]  # nobody waited for the refit
    assert order.index("request", 1) < order.index("page", order.index("page") + 1)  # interleaved
    assert order.count("page") == 6
    assert history.reads == 2  # one background refit, not one per caller while it ran
    assert set(after) == {"steady", "m1", "m2", "contrarian"}


def test_a_background_refit_that_fails_is_logged_and_tried_again_by_the_next_call(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Failing(History):
        fail = False

        def vote_pages(self) -> Iterator[list[tuple[str, str, str]]]:
            if self.fail:
                self.fail = False
                raise OSError("disk gone")
            return super().vote_pages()

    history = Failing(majority_and_contrarian(6))
    weights = cache(history, refit_every=1)

    async def scenario() -> None:
        await weights.weights_async()  # the first fit
        history.fail = True
        await weights.weights_async()  # starts a refit, which fails
        await settled(weights)
        await weights.weights_async()  # starts another
        await settled(weights)

    with caplog.at_level("ERROR"):
        asyncio.run(scenario())

    assert "reliability.refit_failed" in caplog.text
    assert "disk gone" in caplog.text
    assert history.reads == 2  # the first fit and the retry (the failed one raised first)


def test_a_first_fit_that_fails_raises_to_its_caller() -> None:
    class Broken(History):
        def vote_pages(self) -> Iterator[list[tuple[str, str, str]]]:
            raise OSError("disk gone")

    with pytest.raises(OSError, match="disk gone"):
        asyncio.run(cache(Broken([])).weights_async())


def test_fixed_weights_are_the_same_from_both_calls() -> None:
    fixed = FixedWeights({"a": 2.0})

    assert fixed.weights() == {"a": 2.0} == asyncio.run(fixed.weights_async())
    assert FixedWeights().weights() == {}


class Worker:
    """A stand-in refit worker: answers fixed weights (or fails), counts fits and closes."""

    def __init__(self, weights: dict[str, float], *, fails: bool = False) -> None:
        self.answer = FittedWeights(weights, cases=1)
        self.fails = fails
        self.fits = 0
        self.closed = False

    async def fit(self) -> FittedWeights:
        self.fits += 1
        if self.fails:
            raise OSError("worker gone")
        return self.answer

    def close(self) -> None:
        self.closed = True


def _with_worker(history: History, worker: Worker) -> ReliabilityCache:
    return ReliabilityCache(history, refit_every=1, min_answers=3, refits=worker)


def test_from_an_event_loop_a_due_refit_runs_on_the_refit_worker_not_on_the_loop() -> None:
    history = History(majority_and_contrarian(6))
    worker = Worker({"elsewhere": 2.0})
    weights = _with_worker(history, worker)

    async def scenario() -> tuple[dict[str, float], dict[str, float]]:
        first = dict(await weights.weights_async())  # the first fit: in turns, here
        await weights.weights_async()  # due again: handed to the worker
        await settled(weights)
        return first, dict(await weights.weights_async())

    first, later = asyncio.run(scenario())

    assert set(first) == {"steady", "m1", "m2", "contrarian"}
    assert later == {"elsewhere": 2.0}
    assert history.reads == 1  # only the first fit read the history on the loop
    assert worker.fits >= 1
    assert weights.refits is worker


def test_a_refit_worker_that_fails_is_logged_and_that_refit_runs_in_turns_instead(
    caplog: pytest.LogCaptureFixture,
) -> None:
    history = History(majority_and_contrarian(6))
    worker = Worker({"elsewhere": 2.0}, fails=True)
    weights = _with_worker(history, worker)

    async def scenario() -> None:
        await weights.weights_async()
        await weights.weights_async()  # due: the worker fails, the loop refits
        await settled(weights)

    with caplog.at_level("ERROR"):
        asyncio.run(scenario())

    assert worker.fits == 1
    assert history.reads == 2
    assert "reliability.refit_failed" in caplog.text
    assert "worker gone" in caplog.text


def test_closing_the_cache_stops_its_refit_worker_and_later_refits_run_in_turns() -> None:
    history = History(majority_and_contrarian(6))
    worker = Worker({"elsewhere": 2.0})
    weights = _with_worker(history, worker)

    weights.close()
    weights.close()  # a second close has nothing left to stop

    async def scenario() -> None:
        await weights.weights_async()
        await weights.weights_async()
        await settled(weights)

    asyncio.run(scenario())
    assert worker.closed
    assert weights.refits is None
    assert worker.fits == 0
    assert history.reads == 2


def test_without_a_refit_worker_closing_the_cache_does_nothing() -> None:
    weights = cache(History([]))
    weights.close()
    assert weights.refits is None
