from __future__ import annotations

import asyncio

import pytest

from accord.llm import (
    BudgetedModel,
    LanguageModel,
    ModelBadOutput,
    ModelOverCap,
    ModelRequest,
    ModelResponse,
    ScriptedModel,
    TokenBudget,
)

from ._requests import ANSWER_SCHEMA, ask

pytestmark = pytest.mark.anyio


async def test_actual_usage_is_deducted_not_the_cap() -> None:
    budget = TokenBudget(100)
    model = BudgetedModel(ScriptedModel(["a" * 20]), budget)
    await model.complete(ask("q" * 40, max_tokens=50))
    assert budget.spent == 15
    assert budget.remaining == 85


async def test_a_request_whose_cap_exceeds_the_remainder_is_refused_before_calling() -> None:
    inner = ScriptedModel(["never sent"])
    budget = TokenBudget(40)
    with pytest.raises(ModelOverCap) as caught:
        await BudgetedModel(inner, budget).complete(ask(max_tokens=41, case_id="c-9"))
    assert caught.value.code == "llm.budget_exhausted"
    assert caught.value.context["remaining"] == 40
    assert caught.value.context["case_id"] == "c-9"
    assert inner.requests == []


async def test_a_request_using_exactly_the_remainder_is_allowed() -> None:
    budget = TokenBudget(10)
    await BudgetedModel(ScriptedModel(["ok"]), budget).complete(ask("", max_tokens=10))
    assert budget.spent == 2


async def test_tokens_spent_by_a_failed_call_are_still_deducted() -> None:
    budget = TokenBudget(100)
    model = BudgetedModel(ScriptedModel(["not json"]), budget)
    with pytest.raises(ModelBadOutput):
        await model.complete(ask("q" * 8, schema=ANSWER_SCHEMA))
    assert budget.spent == 4


async def test_a_call_failing_without_usage_releases_its_reservation() -> None:
    def broken(_: ModelRequest) -> str:
        raise KeyError("bug")

    budget = TokenBudget(100)
    with pytest.raises(KeyError):
        await BudgetedModel(ScriptedModel([broken]), budget).complete(ask(max_tokens=60))
    assert budget.remaining == 100


async def test_concurrent_calls_cannot_jointly_overrun_the_budget() -> None:
    release = asyncio.Event()

    class Slow:
        name = "slow"

        async def complete(self, request: ModelRequest) -> ModelResponse:
            await release.wait()
            return await ScriptedModel(["ok"]).complete(request)

    budget = TokenBudget(100)
    model = BudgetedModel(Slow(), budget)
    first = asyncio.create_task(model.complete(ask(max_tokens=60)))
    await asyncio.sleep(0)
    with pytest.raises(ModelOverCap):
        await model.complete(ask(max_tokens=60))
    release.set()
    await first
    assert budget.remaining > 40


async def test_remaining_never_goes_below_zero_when_input_overshoots() -> None:
    budget = TokenBudget(5)
    await BudgetedModel(ScriptedModel(["ok"]), budget).complete(ask("q" * 100, max_tokens=5))
    assert budget.spent == 26
    assert budget.remaining == 0


def test_a_budget_cannot_be_negative() -> None:
    with pytest.raises(ValueError, match="negative"):
        TokenBudget(-1)


def test_a_budgeted_model_is_a_language_model_named_after_its_inner_model() -> None:
    model = BudgetedModel(ScriptedModel([], name="arguer"), TokenBudget(10))
    assert isinstance(model, LanguageModel)
    assert model.name == "arguer"
