"""``Settler.settle_async``: agents justify themselves first (playbook §3), within a timeout."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping, Sequence
from typing import Any, cast

import pytest

from accord.cases import (
    Case,
    CaseStore,
    Justification,
    Justifier,
    Settler,
    SettleRequest,
    SettleStatus,
    TriageSettings,
)
from accord.cases.reliability_cache import FixedWeights
from accord.clock import FrozenClock
from accord.errors import ValidationError
from accord.ladder import VerifierRegistry
from accord.ladder.source_verification import SourceFinding
from accord.ledger import Ledger

from ._builders import TASK, SourceOfTruth, request
from ._builders import pos as p

DISPUTED = request(p("a", 100), p("b", 200))
"""No confidences: confidence, authority (no org) and a 1–1 vote all fail; it escalates."""


class Justifies:
    """Answers for each agent with the given justification, and records who was asked."""

    def __init__(self, answers: Mapping[str, Justification]) -> None:
        self.answers = answers
        self.asked: list[tuple[str, str, object]] = []

    async def justify(self, agent: str, subject: str, output: object) -> Justification:
        self.asked.append((agent, subject, output))
        return self.answers[agent]


class Hangs:
    async def justify(self, agent: str, subject: str, output: object) -> Justification:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


class Fails:
    async def justify(self, agent: str, subject: str, output: object) -> Justification:
        raise ConnectionError(f"{agent} is unreachable")


class AnswersOddly:
    async def justify(self, agent: str, subject: str, output: object) -> Justification:
        return {"confidence": 0.99}  # type: ignore[return-value]


def settle(settler: Settler, req: SettleRequest, justifier: object, timeout: float = 5.0) -> Case:
    port = cast(Justifier, justifier)
    return asyncio.run(settler.settle_async(req, justifier=port, justify_timeout=timeout))


def test_a_justification_that_raises_confidence_lets_the_confidence_rung_decide(
    settler: Settler, store: CaseStore
) -> None:
    justifier = Justifies({"a": Justification(confidence=0.9), "b": Justification(confidence=0.3)})

    case = settle(settler, DISPUTED, justifier)

    assert case.status is SettleStatus.SETTLED
    assert case.decision is not None
    assert case.decision.rung == "confidence"
    assert case.decision.winner == "a"
    assert sorted(justifier.asked) == [("a", DISPUTED.subject, 100), ("b", DISPUTED.subject, 200)]
    assert store.get(case.case_id) == case


def test_justifications_add_reasoning_sources_and_assumptions_without_duplicates(
    settler: Settler,
) -> None:
    req = request(p("a", 100, 0.5, sources=["erp"], assumptions=["net"]), p("b", 200, 0.5))
    justifier = Justifies(
        {
            "a": Justification(
                reasoning="lines add up", sources=("erp", "bank"), assumptions=("net", "eur")
            ),
            "b": Justification(),
        }
    )

    case = settle(settler, req, justifier)

    a, b = case.positions
    assert a.reasoning == "lines add up"
    assert a.sources == ("erp", "bank")
    assert a.assumptions == ("net", "eur")
    assert a.confidence == 0.5
    assert b == req.positions[1]


def test_an_agent_that_never_answers_keeps_its_position_as_submitted(settler: Settler) -> None:
    case = settle(settler, DISPUTED, Hangs(), timeout=0.01)

    assert case.positions == tuple(DISPUTED.positions)
    assert case.status is SettleStatus.ESCALATED


def test_an_agent_whose_justification_fails_keeps_its_position_as_submitted(
    settler: Settler,
) -> None:
    case = settle(settler, DISPUTED, Fails())

    assert case.positions == tuple(DISPUTED.positions)
    assert case.status is SettleStatus.ESCALATED


def test_an_answer_that_is_not_a_justification_is_ignored(settler: Settler) -> None:
    case = settle(settler, DISPUTED, AnswersOddly())

    assert case.positions == tuple(DISPUTED.positions)


def test_one_agents_timeout_does_not_discard_the_others_justification(
    settler: Settler,
) -> None:
    class Mixed:
        async def justify(self, agent: str, subject: str, output: object) -> Justification:
            if agent == "a":
                await asyncio.Event().wait()
            return Justification(confidence=0.95)

    case = settle(settler, DISPUTED, Mixed(), timeout=0.01)

    assert [x.confidence for x in case.positions] == [None, 0.95]


def test_agents_are_not_asked_when_they_agree(settler: Settler) -> None:
    justifier = Justifies({})

    case = settle(settler, request(p("a", 100), p("b", 101)), justifier)

    assert justifier.asked == []
    assert case.status is SettleStatus.NO_CONFLICT


def test_a_single_agent_is_refused_before_it_is_asked(settler: Settler) -> None:
    justifier = Justifies({})

    with pytest.raises(ValidationError) as caught:
        settle(settler, request(p("a", 100)), justifier)

    assert caught.value.code == "settle.too_few_positions"
    assert justifier.asked == []


def test_without_a_justifier_it_settles_like_settle(settler: Settler, store: CaseStore) -> None:
    case = asyncio.run(settler.settle_async(request(p("a", 1, 0.9), p("b", 5, 0.1))))

    assert case.status is SettleStatus.SETTLED
    assert case.ledger_seqs == (1, 2)
    assert store.get(case.case_id) == case


def test_weights_are_read_once_per_async_settle_and_without_blocking_the_loop(
    ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    class Counted(FixedWeights):
        reads = 0

        def weights(self) -> dict[str, float]:
            raise AssertionError("the async path must not read weights synchronously")

        async def weights_async(self) -> dict[str, float]:
            self.reads += 1
            return {}

    weights = Counted()
    settler = Settler(
        ledger=ledger, store=store, clock=frozen_clock, settings=TriageSettings(), weights=weights
    )
    justifier = Justifies({"a": Justification(), "b": Justification()})

    settle(settler, DISPUTED, justifier)

    assert weights.reads == 1


def test_a_source_verifier_is_asked_on_a_worker_thread_not_on_the_event_loop(
    ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock
) -> None:
    asked_on: list[int] = []

    class Recording(SourceOfTruth):
        def lookup(self, subject: str, task_type: str, answers: Sequence[Any]) -> SourceFinding:
            asked_on.append(threading.get_ident())
            return super().lookup(subject, task_type, answers)

    registry = VerifierRegistry()
    registry.register(TASK, Recording(200))
    settler = Settler(
        ledger=ledger,
        store=store,
        clock=frozen_clock,
        settings=TriageSettings(),
        verifiers=registry,
    )

    async def main() -> tuple[Case, int]:
        return await settler.settle_async(DISPUTED), threading.get_ident()

    case, loop_thread = asyncio.run(main())

    assert case.decision is not None
    assert case.decision.rung == "source_verification"
    assert asked_on
    assert loop_thread not in asked_on
