"""`Accord.settle`, `settle_async`, `settle_gather` and `settle_many` through the public API."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from pydantic import JsonValue

from accord import Accord, Position, SettleRequest, SettleStatus, SourceFinding
from accord.clock import FrozenClock
from accord.errors import ConfigError, ValidationError


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    instance = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    yield instance
    instance.close()


class ErpTotals:
    """A source of truth for invoice totals."""

    def lookup(self, subject: str, task_type: str, answers: Sequence[JsonValue]) -> SourceFinding:
        return SourceFinding(answer=1450, source="erp:invoice/4411")


def test_ten_lines_of_python_settle_a_disagreement(accord: Accord) -> None:
    case = accord.settle(
        "Total of invoice 4411",
        [
            Position(agent="agent:billing", output=1200, confidence=0.9),
            Position(agent="agent:audit", output=1450, confidence=0.7),
        ],
        task_type="invoicing",
    )
    assert case.status is SettleStatus.SETTLED
    assert case.decision is not None
    assert case.decision.winner == "agent:billing"
    assert [d.agent_id for d in case.dissent] == ["agent:audit"]
    assert accord.cases.get(case.case_id).decision == case.decision
    assert accord.verify(workers=1).entries == 2


def test_a_registered_source_of_truth_outranks_confidence(accord: Accord) -> None:
    accord.verifiers.register("invoicing", ErpTotals())
    case = accord.settle(
        "Total of invoice 4411",
        [
            {"agent": "agent:billing", "output": 1200, "confidence": 0.9},
            {"agent": "agent:audit", "output": 1450, "confidence": 0.7},
        ],
        task_type="invoicing",
    )
    assert case.decision is not None
    assert case.decision.winner == "agent:audit"
    assert case.decision.rung == "source_verification"


def test_a_critical_contradiction_settles_only_with_a_source(accord: Accord) -> None:
    positions = [
        {"agent": "a", "output": True, "confidence": 0.99},
        {"agent": "b", "output": False, "confidence": 0.1},
    ]
    escalated = accord.settle("sanctioned?", positions)
    assert escalated.status is SettleStatus.ESCALATED
    assert accord.cases.find(status="escalated")[0]["case_id"] == escalated.case_id

    class Registry:
        def lookup(
            self, subject: str, task_type: str, answers: Sequence[JsonValue]
        ) -> SourceFinding:
            return SourceFinding(answer=False, source="ofac:sdn-list")

    accord.verifiers.register("*", Registry())
    settled = accord.settle("sanctioned?", positions)
    assert settled.status is SettleStatus.SETTLED
    assert settled.decision is not None
    assert settled.decision.winner == "b"


def test_settle_many_is_all_or_nothing(accord: Accord) -> None:
    good = SettleRequest("ok", [{"agent": "a", "output": 1}, {"agent": "b", "output": 1}])
    bad = SettleRequest("bad", [{"agent": "a", "output": 1}, {"agent": "a", "output": 2}])
    with pytest.raises(ValidationError) as err:
        accord.settle_many([good, bad])
    assert err.value.context["request"] == 1
    assert accord.cases.total() == 0
    assert accord.ledger.size() == 0
    cases = accord.settle_many([good, good])
    assert [c.status for c in cases] == [SettleStatus.NO_CONFLICT] * 2
    assert accord.ledger.size() == 2


def test_settle_gather_awaits_a_fan_out_and_drops_agents_that_fail(accord: Accord) -> None:
    async def answer(value: object, delay: float = 0.0) -> object:
        await asyncio.sleep(delay)
        return value

    async def broken() -> object:
        raise RuntimeError("model timed out")

    async def scenario() -> None:
        case = await accord.settle_gather(
            "label the ticket",
            {
                "agent:a": answer("bug"),
                "agent:b": answer({"output": "bug", "confidence": 0.8}),
                "agent:c": answer(Position(agent="agent:c", output="feature")),
                "agent:d": broken(),
            },
        )
        assert case.status is SettleStatus.SETTLED
        assert case.decision is not None
        assert case.decision.answer == "bug"
        assert {p.agent for p in case.positions} == {"agent:a", "agent:b", "agent:c"}
        with pytest.raises(ValidationError):
            await accord.settle_gather("nothing", {"agent:d": broken()})

    asyncio.run(scenario())


def test_settle_gather_takes_the_list_gather_would_take_and_leaves_out_late_agents(
    accord: Accord,
) -> None:
    async def answer(agent: str, value: object) -> Position:
        return Position(agent=agent, output=value)

    async def never() -> Position:
        await asyncio.Event().wait()  # an agent that hangs
        raise AssertionError("unreachable")

    async def scenario() -> None:
        case = await accord.settle_gather(
            "label the ticket",
            [
                answer("agent:a", "bug"),
                answer("agent:b", "bug"),
                answer("agent:c", "feature"),
                never(),
            ],
            timeout=0.05,
        )
        assert {p.agent for p in case.positions} == {"agent:a", "agent:b", "agent:c"}
        assert case.decision is not None
        assert case.decision.answer == "bug"

    asyncio.run(scenario())


def test_cancelling_settle_gather_cancels_the_agents_and_a_self_cancelled_agent_is_left_out(
    accord: Accord,
) -> None:
    started = asyncio.Event()
    cancelled: list[str] = []

    async def slow(agent: str) -> Position:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.append(agent)
            raise
        raise AssertionError("unreachable")

    async def gives_up() -> Position:
        raise asyncio.CancelledError

    async def answer(agent: str, value: object) -> Position:
        return Position(agent=agent, output=value)

    async def scenario() -> None:
        call = asyncio.ensure_future(accord.settle_gather("s", [slow("agent:slow")]))
        await started.wait()
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        assert cancelled == ["agent:slow"]
        case = await accord.settle_gather(
            "s", [answer("agent:a", 1), answer("agent:b", 1), gives_up()]
        )
        assert {p.agent for p in case.positions} == {"agent:a", "agent:b"}

    asyncio.run(scenario())


def test_settle_gather_refuses_a_position_filed_under_another_agent_and_a_bare_list_output(
    accord: Accord,
) -> None:
    async def answer(value: object) -> object:
        return value

    async def scenario() -> None:
        with pytest.raises(ValidationError) as wrong:
            await accord.settle_gather(
                "s", {"agent:a": answer(Position(agent="agent:z", output=1)), "agent:b": answer(2)}
            )
        assert wrong.value.code == "settle.bad_fan_out"
        with pytest.raises(ValidationError) as bare:
            await accord.settle_gather("s", [answer(1), answer(2)])
        assert bare.value.context["field"] == "fan_out[0]"
        with pytest.raises(ValidationError) as kind:
            await accord.settle_gather("s", 42)  # type: ignore[arg-type]
        assert kind.value.context["field"] == "fan_out"

    asyncio.run(scenario())


def test_settle_async_asks_agents_to_justify_before_deciding(accord: Accord) -> None:
    from accord.cases import Justification

    class Agents:
        async def justify(self, agent: str, subject: str, output: object) -> Justification:
            confidence = 0.95 if agent == "agent:audit" else 0.5
            return Justification(
                reasoning=f"{agent} checked", confidence=confidence, sources=(f"doc:{agent}",)
            )

    async def scenario() -> None:
        case = await accord.settle_async(
            "Total",
            [
                {"agent": "agent:billing", "output": 1200, "confidence": 0.9},
                {"agent": "agent:audit", "output": 1450, "confidence": 0.7},
            ],
            justifier=Agents(),
        )
        assert case.decision is not None
        assert case.decision.winner == "agent:audit"
        assert case.positions[1].sources == ("doc:agent:audit",)

    asyncio.run(scenario())


def test_yaml_settings_change_detection_and_the_ladder(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text(
        "settle:\n"
        "  task_types:\n"
        "    invoicing: {detection: {numeric: {conflict_gap: 0.01, major_gap: 0.05}}}\n"
        "  ladder: {confidence_tie_gap: 0.3}\n"
        "conflict_resolution:\n"
        "  chains:\n"
        "    default: [vote, confidence, human]\n"
    )
    accord = Accord.open(config, db_url=database_url, keys_dir=tmp_path / "k", clock=frozen_clock)
    try:
        positions = [
            {"agent": "a", "output": 100, "confidence": 0.9},
            {"agent": "b", "output": 110, "confidence": 0.7},
        ]
        strict = accord.settle("total", positions, task_type="invoicing")
        assert strict.detection.severity is not None
        assert strict.detection.severity.value == "high"
        assert strict.status is SettleStatus.ESCALATED  # gap 0.2 < tie gap 0.3, vote tied
        # tier 1 tried vote then confidence; the company strategy (authority) had no org
        # chart, so the case went to people
        assert [a.rung for a in strict.attempts] == ["vote", "confidence", "authority", "human"]
        assert strict.escalation is not None
        assert "then authority: no org chart configured" in strict.escalation.reason
        assert strict.approval_item_id is not None
        assert accord.approvals.get(strict.approval_item_id).case_id == strict.case_id
        relaxed = accord.settle("total", positions, task_type="other")
        assert relaxed.status is SettleStatus.NO_CONFLICT
    finally:
        accord.close()


def test_an_unknown_strategy_in_yaml_fails_with_the_key_path(tmp_path: Path) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text("conflict_resolution:\n  chains:\n    default: [vote, coin_toss]\n")
    with pytest.raises(ConfigError) as err:
        Accord.open(config, db_url=f"sqlite:///{tmp_path / 'a.db'}", keys_dir=tmp_path / "k")
    assert err.value.context["key_path"] == "conflict_resolution.chains.default[1]"


def test_outcomes_feed_the_learning_loop(accord: Accord) -> None:
    for _ in range(3):
        accord.settle(
            "t",
            [
                {"agent": "a", "output": 1, "confidence": 0.9},
                {"agent": "b", "output": 5, "confidence": 0.2},
            ],
        )
    outcomes = accord.outcomes()
    assert [o.winner for o in outcomes] == ["a", "a", "a"]
    assert outcomes[0].losers == ("b",)
    weights = accord.reliability.refit()
    assert set(weights) <= {"a", "b"}


#: A settle config whose semantic comparator (a scripted model) calls two texts equivalent.
SEMANTIC_CONFIG = (
    "settle:\n"
    "  semantic: {provider: scripted, model: offline-judge,"
    " script: ['{\"equivalent\": true}']}\n"
)
#: Two agents' paraphrases of one answer, long enough to be compared by meaning.
PARAPHRASES = [
    {"agent": "a", "output": "The outage was caused by an expired TLS certificate at the edge."},
    {"agent": "b", "output": "An expired certificate at the edge proxy caused the outage today."},
]


@pytest.fixture
def semantic_accord(tmp_path: Path, frozen_clock: FrozenClock) -> Iterator[Accord]:
    config = tmp_path / "accord.yaml"
    config.write_text(SEMANTIC_CONFIG)
    accord = Accord.open(
        config, db_url=f"sqlite:///{tmp_path / 'a.db'}", keys_dir=tmp_path / "k", clock=frozen_clock
    )
    yield accord
    accord.close()


def test_a_configured_semantic_model_merges_paraphrased_text_answers(
    semantic_accord: Accord,
) -> None:
    case = semantic_accord.settle("root cause", PARAPHRASES)
    assert case.status is SettleStatus.NO_CONFLICT


def test_a_configured_semantic_model_is_asked_from_settle_async_too(
    semantic_accord: Accord,
) -> None:
    case = asyncio.run(semantic_accord.settle_async("root cause", PARAPHRASES))
    assert case.status is SettleStatus.NO_CONFLICT  # the model was asked, off the loop
