from __future__ import annotations

import json

import pydantic
import pytest

from accord.errors import ValidationError
from accord.llm import (
    JudgeVerdict,
    ModelBadOutput,
    ModelRequest,
    ScriptedModel,
    SwapVerdict,
    judge_with_swap,
)
from accord.llm.swap import positional_labels

pytestmark = pytest.mark.anyio

ARGUMENTS = [
    ("agent:billing", "1200 EUR, per invoice 4411 line 3."),
    ("agent:audit", "1450 EUR, VAT included."),
]


def verdict(winner: str, confidence: float = 0.8) -> dict[str, object]:
    return {
        "winner": winner,
        "reasoning": f"{winner} is better supported",
        "confidence": confidence,
    }


def shown_first(request: ModelRequest) -> str:
    """Which argument text the judge saw under label A."""
    content = request.messages[-1].content
    return content.split('<argument label="A">\n', 1)[1].split("\n</argument>", 1)[0]


async def test_the_second_prompt_swaps_the_order_and_relabels_the_parties() -> None:
    judge = ScriptedModel([verdict("A"), verdict("B")])
    await judge_with_swap(judge, "Total?", ARGUMENTS, max_tokens=200, case_id="c7")
    first, second = judge.requests
    assert shown_first(first) == ARGUMENTS[0][1]
    assert shown_first(second) == ARGUMENTS[1][1]
    for request in judge.requests:
        assert "agent:billing" not in request.messages[-1].content
        assert request.json_schema is not None
        assert request.json_schema["properties"]["winner"]["enum"] == ["A", "B", "neither"]
        assert request.case_id == "c7"
        assert request.max_tokens == 200


async def test_the_same_party_winning_both_orders_is_consistent() -> None:
    judge = ScriptedModel([verdict("B", 0.9), verdict("A", 0.7)])
    result = await judge_with_swap(judge, "Total?", ARGUMENTS, max_tokens=200)
    assert result.first.winner == "agent:audit"
    assert result.second.winner == "agent:audit"
    assert result.consistent is True
    assert result.winner == "agent:audit"
    assert result.confidence == 0.7


async def test_a_judge_that_always_picks_the_first_position_is_inconsistent() -> None:
    judge = ScriptedModel([verdict("A"), verdict("A")])
    result = await judge_with_swap(judge, "Total?", ARGUMENTS, max_tokens=200)
    assert result.first.winner == "agent:billing"
    assert result.second.winner == "agent:audit"
    assert result.consistent is False
    assert result.winner is None
    assert result.confidence is None


async def test_neither_twice_is_a_consistent_neither() -> None:
    judge = ScriptedModel([verdict("neither"), verdict("neither")])
    result = await judge_with_swap(judge, "Total?", ARGUMENTS, max_tokens=200)
    assert result.consistent is True
    assert result.winner == "neither"


async def test_three_parties_are_reversed_for_the_second_prompt() -> None:
    three = [*ARGUMENTS, ("agent:sales", "1300 EUR.")]
    judge = ScriptedModel([verdict("C"), verdict("A")])
    result = await judge_with_swap(judge, "Total?", three, max_tokens=200)
    assert shown_first(judge.requests[1]) == "1300 EUR."
    assert result.winner == "agent:sales"


async def test_a_non_party_winner_in_either_prompt_is_refused() -> None:
    judge = ScriptedModel([verdict("A"), json.dumps(verdict("agent:audit"))])
    with pytest.raises(ModelBadOutput, match="'agent:audit', who is not a party") as caught:
        await judge_with_swap(judge, "Total?", ARGUMENTS, max_tokens=200)
    assert caught.value.code == "llm.judge_non_party"
    assert caught.value.context["labels"] == ["A", "B"]
    assert caught.value.spent is not None


async def test_bad_labels_are_refused_before_any_call() -> None:
    judge = ScriptedModel([])
    with pytest.raises(ValidationError):
        await judge_with_swap(judge, "Total?", [ARGUMENTS[0]], max_tokens=200)
    assert judge.requests == []


def test_a_swap_verdict_cannot_claim_consistency_the_verdicts_lack() -> None:
    a = JudgeVerdict(winner="agent:billing", reasoning="r", confidence=0.5)
    b = JudgeVerdict(winner="agent:audit", reasoning="r", confidence=0.5)
    with pytest.raises(pydantic.ValidationError, match="consistent must say"):
        SwapVerdict(first=a, second=b, consistent=True, winner="agent:billing")
    with pytest.raises(pydantic.ValidationError, match="winner is the agreed winner"):
        SwapVerdict(first=a, second=b, consistent=False, winner="agent:billing")
    with pytest.raises(pydantic.ValidationError, match="winner is the agreed winner"):
        SwapVerdict(first=a, second=a, consistent=True, winner=None)


def test_positional_labels_run_from_a_and_stop_at_z() -> None:
    assert positional_labels(3) == ["A", "B", "C"]
    with pytest.raises(ValueError, match="26"):
        positional_labels(27)
