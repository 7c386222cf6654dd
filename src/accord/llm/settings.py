"""Model settings from configuration, and building the model they describe.

Settings name the environment variable holding an API key, never the key itself.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Mapping
from typing import Literal
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.llm.anthropic import AnthropicModel
from accord.llm.errors import ModelConfigError
from accord.llm.openai_compatible import OpenAICompatibleModel
from accord.llm.protocol import LanguageModel
from accord.llm.retry import RetryPolicy, Sleep
from accord.llm.scripted import ScriptedModel

Provider = Literal["openai_compatible", "anthropic", "scripted"]


#: The only variables a configuration may hand to a model as its API key: a configuration
#: must not be able to send, say, ``AWS_SECRET_ACCESS_KEY`` as a bearer token.
API_KEY_ENV_PATTERN = r"^(ACCORD_[A-Z0-9_]+|[A-Z][A-Z0-9_]*_API_KEY)$"
_LOOPBACK_HOSTS = ("localhost", "::1")


def sends_key_safely(base_url: str) -> bool:
    """An API key may travel to ``https://`` anywhere, or to plain ``http://`` on this
    machine's loopback (a local model server) — never in clear text over a network."""
    try:
        parsed = urlsplit(base_url)
        host = parsed.hostname or ""
    except ValueError:
        return False
    if parsed.scheme == "https":
        return bool(host)
    if parsed.scheme != "http":
        return False
    if host in _LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ModelSettings(BaseModel):
    """Which model to call and how; ``script`` feeds the ``scripted`` provider (offline demos).

    ``api_key_env`` names the variable holding the key (``ACCORD_*`` or ``*_API_KEY`` only);
    with a key, ``base_url`` must be ``https://`` or ``http://`` on the loopback.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: Provider
    model: str = Field(min_length=1)
    base_url: str | None = None
    api_key_env: str | None = Field(default=None, pattern=API_KEY_ENV_PATTERN)
    timeout: float = Field(default=30.0, gt=0)
    max_retries: int = Field(default=2, ge=0)
    script: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _key_goes_only_where_it_is_safe(self) -> ModelSettings:
        url = self.base_url
        if self.api_key_env is not None and url is not None and not sends_key_safely(url):
            raise ValueError(
                "base_url: with api_key_env set, base_url must be https:// or an http:// "
                "loopback address (127.0.0.1, localhost, ::1)"
            )
        return self


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
