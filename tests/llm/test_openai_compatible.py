from __future__ import annotations

import httpx
import pytest

from accord.llm import (
    LanguageModel,
    ModelBadOutput,
    ModelConfigError,
    ModelOverCap,
    OpenAICompatibleModel,
    RetryPolicy,
    TokenUsage,
)

from ._requests import ANSWER_SCHEMA, ask
from ._server import FakeProviderServer, Reply, openai_reply
from .conftest import SleepRecorder

pytestmark = pytest.mark.anyio

NO_RETRY = RetryPolicy(attempts=1)


def model_for(
    server: FakeProviderServer,
    transport: httpx.AsyncBaseTransport,
    sleeps: SleepRecorder,
    **options: object,
) -> OpenAICompatibleModel:
    return OpenAICompatibleModel(
        server.base_url + "/v1",
        "qwen2.5-7b-instruct",
        "sk-test",
        transport=transport,
        sleep=sleeps,
        **options,  # type: ignore[arg-type]
    )


async def test_it_posts_the_chat_completion_with_the_cap_and_the_bearer_key(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=openai_reply("1200 EUR")))
    model = model_for(server, transport, sleeps)
    await model.complete(ask(max_tokens=64, system="Be exact."))
    [received] = server.received
    assert received.path == "/v1/chat/completions"
    assert received.headers["authorization"] == "Bearer sk-test"
    assert received.headers["content-type"] == "application/json"
    assert received.body == {
        "model": "qwen2.5-7b-instruct",
        "messages": [
            {"role": "system", "content": "Be exact."},
            {"role": "user", "content": "What is the total of invoice 4411?"},
        ],
        "max_tokens": 64,
        "temperature": 0.0,
    }


async def test_it_reads_the_text_usage_model_and_finish_reason(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=openai_reply("1200 EUR", prompt_tokens=31, completion_tokens=4)))
    response = await model_for(server, transport, sleeps).complete(ask())
    assert response.text == "1200 EUR"
    assert response.usage == TokenUsage(input_tokens=31, output_tokens=4)
    assert response.usage_estimated is False
    assert response.model == "served-model"
    assert response.finish_reason == "stop"
    assert response.parsed is None


async def test_a_schema_is_sent_as_a_strict_json_schema_response_format(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=openai_reply('{"total": 1200, "currency": "EUR"}')))
    response = await model_for(server, transport, sleeps).complete(ask(schema=ANSWER_SCHEMA))
    assert server.received[0].body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "answer", "schema": ANSWER_SCHEMA, "strict": True},
    }
    assert response.parsed == {"total": 1200, "currency": "EUR"}


async def test_a_fenced_json_answer_is_accepted(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=openai_reply('```json\n{"total": 5, "currency": "USD"}\n```')))
    response = await model_for(server, transport, sleeps).complete(ask(schema=ANSWER_SCHEMA))
    assert response.parsed == {"total": 5, "currency": "USD"}


async def test_an_answer_that_is_not_json_is_bad_json(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=openai_reply("The total is 1200 EUR.")))
    with pytest.raises(ModelBadOutput) as caught:
        await model_for(server, transport, sleeps).complete(ask(schema=ANSWER_SCHEMA))
    assert caught.value.code == "llm.bad_json"


async def test_a_schema_violation_names_the_path(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=openai_reply('{"total": -3, "currency": "EUR"}')))
    with pytest.raises(ModelBadOutput, match=r"\$\.total") as caught:
        await model_for(server, transport, sleeps).complete(ask(schema=ANSWER_SCHEMA))
    assert caught.value.code == "llm.schema_violation"
    assert caught.value.context["path"] == "$.total"


async def test_an_answer_over_the_cap_is_refused_even_if_the_server_ignored_it(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=openai_reply("long answer", completion_tokens=65)))
    with pytest.raises(ModelOverCap) as caught:
        await model_for(server, transport, sleeps).complete(ask(max_tokens=64))
    assert caught.value.code == "llm.over_cap"
    assert caught.value.spent == TokenUsage(input_tokens=12, output_tokens=65)


async def test_missing_usage_is_estimated_and_flagged(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=openai_reply("x" * 40, prompt_tokens=None, completion_tokens=None)))
    response = await model_for(server, transport, sleeps).complete(ask("y" * 20))
    assert response.usage == TokenUsage(input_tokens=5, output_tokens=10)
    assert response.usage_estimated is True


async def test_an_empty_answer_is_estimated_as_at_least_one_token(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=openai_reply(None, prompt_tokens=None, completion_tokens=None)))
    response = await model_for(server, transport, sleeps).complete(ask())
    assert response.text == ""
    assert response.usage.output_tokens == 1


async def test_a_body_that_is_not_json_is_a_bad_response(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body="<html>gateway</html>"))
    with pytest.raises(ModelBadOutput) as caught:
        await model_for(server, transport, sleeps).complete(ask())
    assert caught.value.code == "llm.bad_response"
    assert caught.value.context["excerpt"] == "<html>gateway</html>"


@pytest.mark.parametrize(
    ("body", "where"),
    [('{"choices": []}', "choices"), ('{"choices": [{"finish_reason": "stop"}]}', "message")],
)
async def test_an_envelope_of_the_wrong_shape_is_a_bad_response_naming_where(
    server: FakeProviderServer,
    transport: httpx.AsyncHTTPTransport,
    sleeps: SleepRecorder,
    body: str,
    where: str,
) -> None:
    server.reply(Reply(body=body))
    with pytest.raises(ModelBadOutput, match=where) as caught:
        await model_for(server, transport, sleeps).complete(ask())
    assert caught.value.code == "llm.bad_response"


async def test_a_json_body_that_is_not_an_object_is_a_bad_response(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body="[1, 2]"))
    with pytest.raises(ModelBadOutput) as caught:
        await model_for(server, transport, sleeps).complete(ask())
    assert caught.value.code == "llm.bad_response"


async def test_without_a_key_no_authorization_is_sent_and_extra_headers_are(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=openai_reply("ok")))
    model = OpenAICompatibleModel(
        server.base_url + "/v1/",
        "llama3",
        transport=transport,
        sleep=sleeps,
        extra_headers={"x-team": "audit"},
    )
    await model.complete(ask())
    [received] = server.received
    assert received.path == "/v1/chat/completions"
    assert "authorization" not in received.headers
    assert received.headers["x-team"] == "audit"


async def test_a_model_built_without_a_transport_owns_and_closes_its_client(
    server: FakeProviderServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    server.reply(Reply(body=openai_reply("ok")), Reply(body=openai_reply("again")))
    model = OpenAICompatibleModel(server.base_url, "llama3")
    assert (await model.complete(ask())).text == "ok"
    assert (await model.complete(ask())).text == "again"


@pytest.mark.parametrize(
    "base_url", ["ftp://example.invalid", "not a url", "http://", "http://[::1"]
)
def test_a_base_url_that_is_not_http_is_a_config_error(base_url: str) -> None:
    with pytest.raises(ModelConfigError):
        OpenAICompatibleModel(base_url, "m")


def test_a_timeout_must_be_positive() -> None:
    with pytest.raises(ModelConfigError, match="timeout"):
        OpenAICompatibleModel("http://127.0.0.1:9", "m", timeout=0)


def test_the_model_satisfies_the_protocol_and_its_repr_hides_the_key() -> None:
    model = OpenAICompatibleModel("http://127.0.0.1:9/v1", "m", "sk-secret")
    assert isinstance(model, LanguageModel)
    assert "sk-secret" not in repr(model)
    assert model.name == "m"
