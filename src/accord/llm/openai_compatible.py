"""A provider for OpenAI-compatible chat endpoints: OpenAI, vLLM, llama.cpp server, Ollama."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import httpx
from pydantic import BaseModel, Field

from accord.llm._http import JsonPoster, endpoint, read_envelope
from accord.llm.answers import checked_response
from accord.llm.messages import ModelRequest, ModelResponse
from accord.llm.retry import RetryPolicy, Sleep
from accord.llm.tokens import usage_or_estimate


class OpenAICompatibleModel:
    """POSTs ``{base_url}/chat/completions``; a schema goes as a strict ``json_schema`` format.

    Missing ``usage`` in the answer is estimated and flagged ``usage_estimated``.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
        extra_headers: Mapping[str, str] | None = None,
    ) -> None:
        self.name = model
        self._url = endpoint(base_url, "chat/completions")
        self._headers = {"accept": "application/json", **(extra_headers or {})}
        if api_key:
            self._headers["authorization"] = f"Bearer {api_key}"
        self._poster = JsonPoster(
            timeout=timeout, retry=retry or RetryPolicy(), transport=transport, sleep=sleep
        )

    def __repr__(self) -> str:
        return f"OpenAICompatibleModel(url={self._url!r}, model={self.name!r})"

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Ask the endpoint, then check the cap and the schema."""
        data = await self._poster.post(self._url, self.request_body(request), self._headers)
        reply = read_envelope(_Reply, data, "OpenAI-compatible")
        choice = reply.choices[0]
        text = choice.message.content or ""
        usage = reply.usage or _Usage()
        counted, estimated = usage_or_estimate(
            request, text, usage.prompt_tokens, usage.completion_tokens
        )
        return checked_response(
            request,
            text=text,
            usage=counted,
            model=reply.model or self.name,
            finish_reason=choice.finish_reason,
            usage_estimated=estimated,
        )

    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        """The JSON body sent for ``request``."""
        body: dict[str, Any] = {
            "model": self.name,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
        }
        if request.json_schema is not None:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "answer", "schema": request.json_schema, "strict": True},
            }
        return body


class _Usage(BaseModel):
    prompt_tokens: int | None = Field(default=None, ge=0)
    completion_tokens: int | None = Field(default=None, ge=0)


class _Message(BaseModel):
    content: str | None = None


class _Choice(BaseModel):
    message: _Message
    finish_reason: str | None = None


class _Reply(BaseModel):
    choices: list[_Choice] = Field(min_length=1)
    usage: _Usage | None = None
    model: str | None = None
