from __future__ import annotations

import pytest

from accord.llm import (
    CaseUsage,
    LanguageModel,
    MeteredModel,
    ModelOverCap,
    ModelTimeout,
    ScriptedModel,
    UsageMeter,
)

from ._requests import ask

pytestmark = pytest.mark.anyio


async def test_calls_and_tokens_are_counted_per_case_and_in_total() -> None:
    meter = UsageMeter()
    model = MeteredModel(ScriptedModel(["a" * 8, "b" * 12, "c" * 4]), meter)
    await model.complete(ask("q" * 20, case_id="case-1"))
    await model.complete(ask("q" * 20, case_id="case-1"))
    await model.complete(ask("q" * 20, case_id="case-2"))
    assert meter.for_case("case-1") == CaseUsage(calls=2, input_tokens=10, output_tokens=5)
    assert meter.for_case("case-2") == CaseUsage(calls=1, input_tokens=5, output_tokens=1)
    assert meter.total() == CaseUsage(calls=3, input_tokens=15, output_tokens=6)
    assert meter.total().total_tokens == 21
    assert meter.cases() == ("case-1", "case-2")


async def test_failed_calls_count_as_calls_with_whatever_tokens_they_spent() -> None:
    meter = UsageMeter()
    model = MeteredModel(ScriptedModel([ModelTimeout("slow"), "x" * 80]), meter)
    with pytest.raises(ModelTimeout):
        await model.complete(ask("q" * 4, case_id="c"))
    with pytest.raises(ModelOverCap):
        await model.complete(ask("q" * 4, case_id="c", max_tokens=10))
    assert meter.for_case("c") == CaseUsage(
        calls=2, failed_calls=2, input_tokens=1, output_tokens=20
    )


async def test_errors_that_are_not_model_errors_are_counted_and_reraised() -> None:
    def broken(_: object) -> str:
        raise KeyError("bug")

    meter = UsageMeter()
    with pytest.raises(KeyError):
        await MeteredModel(ScriptedModel([broken]), meter).complete(ask())
    assert meter.total() == CaseUsage(calls=1, failed_calls=1)


async def test_calls_outside_any_case_are_tallied_under_none() -> None:
    meter = UsageMeter()
    await MeteredModel(ScriptedModel(["ok"]), meter).complete(ask())
    assert meter.for_case(None).calls == 1


def test_an_unseen_case_has_a_zero_tally() -> None:
    assert UsageMeter().for_case("never") == CaseUsage()


def test_a_metered_model_is_a_language_model_named_after_its_inner_model() -> None:
    model = MeteredModel(ScriptedModel([], name="judge"), UsageMeter())
    assert isinstance(model, LanguageModel)
    assert model.name == "judge"
