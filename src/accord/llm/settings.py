"""Model settings from configuration, and building the model they describe.

Settings name the environment variable holding an API key, never the key itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Literal

import httpx
from pydantic import BaseModel, ConfigDict, Field

from accord.llm.anthropic import AnthropicModel
from accord.llm.errors import ModelConfigError
from accord.llm.openai_compatible import OpenAICompatibleModel
from accord.llm.protocol import LanguageModel
from accord.llm.retry import RetryPolicy, Sleep
from accord.llm.scripted import ScriptedModel

Provider = Literal["openai_compatible", "anthropic", "scripted"]


class ModelSettings(BaseModel):
    """Which model to call and how; ``script`` feeds the ``scripted`` provider (offline demos)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: Provider
    model: str = Field(min_length=1)
    base_url: str | None = None
    api_key_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    timeout: float = Field(default=30.0, gt=0)
    max_retries: int = Field(default=2, ge=0)
    script: tuple[str, ...] = ()


def build_model(
    settings: ModelSettings,
    *,
    environ: Mapping[str, str],
    transport: httpx.AsyncBaseTransport | None = None,
    sleep: Sleep = asyncio.sleep,
) -> LanguageModel:
    """The model ``settings`` describe; ``ModelConfigError`` names whatever is missing."""
    if settings.provider == "scripted":
        return ScriptedModel(settings.script, name=settings.model)
    retry = RetryPolicy(attempts=settings.max_retries + 1)
    api_key = _api_key(settings, environ)
    if settings.provider == "anthropic":
        if api_key is None:
            raise ModelConfigError("the anthropic provider needs api_key_env", provider="anthropic")
        return AnthropicModel(
            settings.model,
            api_key,
            base_url=settings.base_url or "https://api.anthropic.com",
            timeout=settings.timeout,
            retry=retry,
            transport=transport,
            sleep=sleep,
        )
    if settings.base_url is None:
        raise ModelConfigError(
            "the openai_compatible provider needs base_url", provider="openai_compatible"
        )
    return OpenAICompatibleModel(
        settings.base_url,
        settings.model,
        api_key,
        timeout=settings.timeout,
        retry=retry,
        transport=transport,
        sleep=sleep,
    )


def _api_key(settings: ModelSettings, environ: Mapping[str, str]) -> str | None:
    if settings.api_key_env is None:
        return None
    key = environ.get(settings.api_key_env, "")
    if not key:
        raise ModelConfigError(
            f"environment variable {settings.api_key_env} holding the API key is not set",
            variable=settings.api_key_env,
        )
    return key
