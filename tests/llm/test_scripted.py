from __future__ import annotations

import asyncio

import pytest

from accord.llm import (
    LanguageModel,
    ModelBadOutput,
    ModelOverCap,
    ModelRequest,
    ModelScriptExhausted,
    ModelTimeout,
    ScriptedModel,
    TokenUsage,
    complete_sync,
)

from ._requests import ANSWER_SCHEMA, ask

pytestmark = pytest.mark.anyio


async def test_it_answers_in_script_order_and_records_every_request() -> None:
    model = ScriptedModel(["first", "second"])
    one, two = ask("one"), ask("two")
    assert (await model.complete(one)).text == "first"
    assert (await model.complete(two)).text == "second"
    assert model.requests == [one, two]
    assert model.remaining == 0


async def test_a_dict_answer_is_sent_as_json_and_parsed_under_a_schema() -> None:
    model = ScriptedModel([{"total": 1200, "currency": "EUR"}])
    response = await model.complete(ask(schema=ANSWER_SCHEMA))
    assert response.text == '{"total": 1200, "currency": "EUR"}'
    assert response.parsed == {"total": 1200, "currency": "EUR"}


async def test_a_function_answer_sees_the_request() -> None:
    def echo(request: ModelRequest) -> str:
        return request.messages[-1].content.upper()

    model = ScriptedModel([echo, lambda request: {"total": request.max_tokens, "currency": "USD"}])
    assert (await model.complete(ask("shout"))).text == "SHOUT"
    assert (await model.complete(ask(max_tokens=9, schema=ANSWER_SCHEMA))).parsed == {
        "total": 9,
        "currency": "USD",
    }


async def test_a_scripted_exception_is_raised_and_the_request_still_recorded() -> None:
    model = ScriptedModel([ModelTimeout("scripted timeout"), "after"])
    with pytest.raises(ModelTimeout, match="scripted timeout"):
        await model.complete(ask())
    assert (await model.complete(ask())).text == "after"
    assert len(model.requests) == 2


async def test_tokens_are_counted_deterministically_from_text_length() -> None:
    model = ScriptedModel(["a" * 40], tokens_per_char=0.5, name="demo")
    response = await model.complete(ask("q" * 10))
    assert response.usage == TokenUsage(input_tokens=5, output_tokens=20)
    assert response.model == "demo"
    assert response.usage_estimated is False


async def test_an_answer_longer_than_the_cap_is_over_cap_like_a_real_provider() -> None:
    model = ScriptedModel(["x" * 41])
    with pytest.raises(ModelOverCap) as caught:
        await model.complete(ask(max_tokens=9))
    assert caught.value.spent == TokenUsage(input_tokens=8, output_tokens=10)


async def test_an_answer_at_the_cap_passes() -> None:
    model = ScriptedModel(["x" * 39])
    assert (await model.complete(ask(max_tokens=9))).usage.output_tokens == 9


async def test_an_off_schema_answer_is_bad_output() -> None:
    model = ScriptedModel([{"total": "many"}])
    with pytest.raises(ModelBadOutput) as caught:
        await model.complete(ask(schema=ANSWER_SCHEMA))
    assert caught.value.code == "llm.schema_violation"


async def test_running_out_of_script_is_a_clear_error() -> None:
    model = ScriptedModel(["only"], name="judge-script")
    await model.complete(ask())
    with pytest.raises(ModelScriptExhausted, match="judge-script was given 1 answer") as caught:
        await model.complete(ask(purpose="judge"))
    assert caught.value.code == "llm.script_exhausted"
    assert caught.value.context == {"script_length": 1, "purpose": "judge"}


def test_tokens_per_char_must_be_positive() -> None:
    with pytest.raises(ValueError, match="tokens_per_char"):
        ScriptedModel([], tokens_per_char=0)


def test_the_scripted_model_satisfies_the_protocol() -> None:
    assert isinstance(ScriptedModel([]), LanguageModel)


def test_the_sync_helper_runs_a_call_to_completion() -> None:
    response = complete_sync(ScriptedModel(["done"]), ask())
    assert response.text == "done"


def test_the_sync_helper_refuses_to_run_inside_an_event_loop() -> None:
    model = ScriptedModel(["x"])

    async def inside() -> None:
        with pytest.raises(RuntimeError, match=r"await model\.complete"):
            complete_sync(model, ask())

    asyncio.run(inside())
    assert model.requests == []
