from __future__ import annotations

import json

import httpx
import pytest

from accord.llm import (
    AnthropicModel,
    LanguageModel,
    Message,
    ModelBadOutput,
    ModelConfigError,
    ModelHTTPError,
    ModelOverCap,
    ModelRequest,
    RetryPolicy,
    TokenUsage,
)

from ._requests import ANSWER_SCHEMA, ask
from ._server import FakeProviderServer, Reply, anthropic_reply
from .conftest import SleepRecorder

pytestmark = pytest.mark.anyio


def model_for(
    server: FakeProviderServer, transport: httpx.AsyncBaseTransport, sleeps: SleepRecorder
) -> AnthropicModel:
    return AnthropicModel(
        "claude-test",
        "ak-test",
        base_url=server.base_url,
        transport=transport,
        sleep=sleeps,
        retry=RetryPolicy(attempts=1),
    )


async def test_it_posts_messages_with_the_key_version_cap_and_system_prompt(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=anthropic_reply("1200 EUR")))
    request = ModelRequest(
        messages=(
            Message(role="system", content="Be exact."),
            Message(role="user", content="Total?"),
            Message(role="assistant", content="Which invoice?"),
            Message(role="system", content="Cite sources."),
            Message(role="user", content="4411."),
        ),
        max_tokens=128,
        temperature=0.2,
    )
    await model_for(server, transport, sleeps).complete(request)
    [received] = server.received
    assert received.path == "/v1/messages"
    assert received.headers["x-api-key"] == "ak-test"
    assert received.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in received.headers
    assert received.body == {
        "model": "claude-test",
        "max_tokens": 128,
        "temperature": 0.2,
        "system": "Be exact.\n\nCite sources.",
        "messages": [
            {"role": "user", "content": "Total?"},
            {"role": "assistant", "content": "Which invoice?"},
            {"role": "user", "content": "4411."},
        ],
    }


async def test_without_system_messages_no_system_field_is_sent(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=anthropic_reply("ok")))
    await model_for(server, transport, sleeps).complete(ask())
    assert "system" not in server.received[0].body


async def test_it_joins_text_blocks_and_reads_usage_and_stop_reason(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    body = anthropic_reply("1200 ", "EUR", input_tokens=40, output_tokens=3)
    body["content"].insert(1, {"type": "tool_use", "id": "t", "name": "x", "input": {}})
    server.reply(Reply(body=body))
    response = await model_for(server, transport, sleeps).complete(ask())
    assert response.text == "1200 EUR"
    assert response.usage == TokenUsage(input_tokens=40, output_tokens=3)
    assert response.finish_reason == "end_turn"
    assert response.model == "claude-test"
    assert response.usage_estimated is False


async def test_a_schema_is_appended_to_the_system_prompt_and_the_answer_validated(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=anthropic_reply('```json\n{"total": 1, "currency": "EUR"}\n```')))
    model = model_for(server, transport, sleeps)
    response = await model.complete(ask(schema=ANSWER_SCHEMA, system="Be exact."))
    system = server.received[0].body["system"]
    assert system.startswith("Be exact.\n\nAnswer with exactly one JSON object")
    assert json.dumps(ANSWER_SCHEMA, indent=2, sort_keys=True) in system
    assert "response_format" not in server.received[0].body
    assert response.parsed == {"total": 1, "currency": "EUR"}


async def test_a_schema_alone_makes_the_system_prompt(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=anthropic_reply('{"total": 1, "currency": "EUR"}')))
    await model_for(server, transport, sleeps).complete(ask(schema=ANSWER_SCHEMA))
    assert server.received[0].body["system"].startswith("Answer with exactly one JSON object")


async def test_a_schema_violation_names_the_path(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=anthropic_reply('{"total": 1}')))
    with pytest.raises(ModelBadOutput, match=r"\$\.currency") as caught:
        await model_for(server, transport, sleeps).complete(ask(schema=ANSWER_SCHEMA))
    assert caught.value.code == "llm.schema_violation"


async def test_an_answer_over_the_cap_is_refused(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=anthropic_reply("long", output_tokens=51, stop_reason="max_tokens")))
    with pytest.raises(ModelOverCap) as caught:
        await model_for(server, transport, sleeps).complete(ask(max_tokens=50))
    assert caught.value.context["output_tokens"] == 51


async def test_missing_usage_is_estimated_and_flagged(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body=anthropic_reply("z" * 12, input_tokens=None, output_tokens=None)))
    response = await model_for(server, transport, sleeps).complete(ask("q" * 8))
    assert response.usage == TokenUsage(input_tokens=2, output_tokens=3)
    assert response.usage_estimated is True


async def test_an_error_status_carries_the_status_and_a_truncated_body(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(status=400, body="e" * 2000))
    with pytest.raises(ModelHTTPError) as caught:
        await model_for(server, transport, sleeps).complete(ask())
    error = caught.value
    assert error.code == "llm.http_error"
    assert error.context["status"] == 400
    assert error.context["body"] == "e" * 500 + "…"
    assert sleeps.delays == []


async def test_an_envelope_without_content_is_a_bad_response(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(body={"type": "message"}))
    with pytest.raises(ModelBadOutput, match="content") as caught:
        await model_for(server, transport, sleeps).complete(ask())
    assert caught.value.code == "llm.bad_response"


def test_an_empty_api_key_is_a_config_error() -> None:
    with pytest.raises(ModelConfigError, match="api_key"):
        AnthropicModel("claude-test", "")


def test_the_model_satisfies_the_protocol_and_its_repr_hides_the_key() -> None:
    model = AnthropicModel("claude-test", "ak-secret")
    assert isinstance(model, LanguageModel)
    assert "ak-secret" not in repr(model)
    assert "https://api.anthropic.com/v1/messages" in repr(model)
