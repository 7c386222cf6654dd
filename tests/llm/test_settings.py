from __future__ import annotations

import httpx
import pydantic
import pytest

from accord.llm import (
    AnthropicModel,
    ModelConfigError,
    ModelHTTPError,
    ModelSettings,
    OpenAICompatibleModel,
    ScriptedModel,
    build_model,
)

from ._requests import ask
from ._server import FakeProviderServer, Reply, anthropic_reply, openai_reply
from .conftest import SleepRecorder

pytestmark = pytest.mark.anyio


async def test_an_openai_compatible_model_is_built_with_the_key_from_the_environment(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    settings = ModelSettings(
        provider="openai_compatible",
        model="llama3",
        base_url=server.base_url + "/v1",
        api_key_env="ACCORD_TEST_KEY",
        max_retries=1,
    )
    model = build_model(
        settings, environ={"ACCORD_TEST_KEY": "sk-env"}, transport=transport, sleep=sleeps
    )
    assert isinstance(model, OpenAICompatibleModel)
    server.reply(Reply(status=502), Reply(body=openai_reply("ok")))
    assert (await model.complete(ask())).text == "ok"
    assert server.received[-1].headers["authorization"] == "Bearer sk-env"
    assert sleeps.delays == [0.5]


async def test_an_openai_compatible_model_may_go_without_a_key(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    settings = ModelSettings(provider="openai_compatible", model="llama3", base_url=server.base_url)
    model = build_model(settings, environ={}, transport=transport, sleep=sleeps)
    server.reply(Reply(body=openai_reply("ok")))
    await model.complete(ask())
    assert "authorization" not in server.received[0].headers


async def test_max_retries_counts_attempts_after_the_first(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    settings = ModelSettings(
        provider="anthropic",
        model="claude-test",
        base_url=server.base_url,
        api_key_env="ANTHROPIC_API_KEY",
        max_retries=0,
        timeout=2.0,
    )
    model = build_model(
        settings, environ={"ANTHROPIC_API_KEY": "ak-env"}, transport=transport, sleep=sleeps
    )
    assert isinstance(model, AnthropicModel)
    server.reply(Reply(status=503), Reply(body=anthropic_reply("unused")))
    with pytest.raises(ModelHTTPError):
        await model.complete(ask())
    assert len(server.received) == 1
    assert server.received[0].headers["x-api-key"] == "ak-env"


def test_a_missing_key_variable_is_a_config_error_naming_the_variable() -> None:
    settings = ModelSettings(provider="anthropic", model="c", api_key_env="ANTHROPIC_API_KEY")
    with pytest.raises(ModelConfigError, match="ANTHROPIC_API_KEY") as caught:
        build_model(settings, environ={"OTHER": "x"})
    assert caught.value.code == "llm.config"
    assert caught.value.context == {"variable": "ANTHROPIC_API_KEY"}


def test_an_empty_key_variable_counts_as_missing() -> None:
    settings = ModelSettings(
        provider="openai_compatible",
        model="m",
        base_url="http://127.0.0.1:1",
        api_key_env="ACCORD_K",
    )
    with pytest.raises(ModelConfigError, match="ACCORD_K holding the API key is not set"):
        build_model(settings, environ={"ACCORD_K": ""})


def test_anthropic_without_a_key_variable_is_a_config_error() -> None:
    with pytest.raises(ModelConfigError, match="needs api_key_env"):
        build_model(ModelSettings(provider="anthropic", model="c"), environ={})


def test_anthropic_defaults_to_the_public_api_url() -> None:
    settings = ModelSettings(provider="anthropic", model="c", api_key_env="ANTHROPIC_API_KEY")
    model = build_model(settings, environ={"ANTHROPIC_API_KEY": "ak"})
    assert "https://api.anthropic.com/v1/messages" in repr(model)


def test_openai_compatible_without_a_base_url_is_a_config_error() -> None:
    with pytest.raises(ModelConfigError, match="needs base_url"):
        build_model(ModelSettings(provider="openai_compatible", model="m"), environ={})


async def test_the_scripted_provider_plays_its_script_offline() -> None:
    settings = ModelSettings(provider="scripted", model="demo", script=("first", "second"))
    model = build_model(settings, environ={})
    assert isinstance(model, ScriptedModel)
    assert model.name == "demo"
    assert (await model.complete(ask())).text == "first"


@pytest.mark.parametrize(
    "key",
    ["sk-live-abc123", "has space", "1STARTS_WITH_DIGIT", "", "AWS_SECRET_ACCESS_KEY", "HOME"],
)
def test_api_key_env_must_look_like_a_variable_name_not_a_key(key: str) -> None:
    with pytest.raises(pydantic.ValidationError, match="api_key_env"):
        ModelSettings(provider="anthropic", model="c", api_key_env=key)


@pytest.mark.parametrize(
    ("field", "value"),
    [("timeout", 0), ("max_retries", -1), ("model", ""), ("provider", "bard"), ("extra", 1)],
)
def test_settings_refuse_bad_values(field: str, value: object) -> None:
    data: dict[str, object] = {"provider": "scripted", "model": "m", field: value}
    with pytest.raises(pydantic.ValidationError, match=field):
        ModelSettings.model_validate(data)


def test_settings_are_frozen_and_default_to_thirty_seconds_and_two_retries() -> None:
    settings = ModelSettings(provider="scripted", model="m")
    assert settings.timeout == 30.0
    assert settings.max_retries == 2
    with pytest.raises(pydantic.ValidationError):
        settings.model = "other"  # type: ignore[misc]


@pytest.mark.parametrize(
    "url",
    ["http://api.example.com/v1", "http://10.0.0.5/v1", "ftp://127.0.0.1", "https://", "nonsense"],
)
def test_an_api_key_is_never_sent_in_clear_text_off_this_machine(url: str) -> None:
    with pytest.raises(pydantic.ValidationError, match="loopback"):
        ModelSettings(
            provider="openai_compatible", model="m", base_url=url, api_key_env="OPENAI_API_KEY"
        )


@pytest.mark.parametrize(
    "url", ["https://api.example.com/v1", "http://127.0.0.1:8080/v1", "http://localhost:1/v1"]
)
def test_an_api_key_may_go_to_https_or_the_loopback(url: str) -> None:
    settings = ModelSettings(
        provider="openai_compatible", model="m", base_url=url, api_key_env="ACCORD_MODEL_KEY"
    )
    assert settings.base_url == url
    keyless = ModelSettings(provider="openai_compatible", model="m", base_url="http://a.b/v1")
    assert keyless.api_key_env is None  # no key, nothing to protect
