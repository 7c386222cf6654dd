"""A provider for Anthropic's Messages API; a schema is enforced by instruction + validation."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from pydantic import BaseModel, Field

from accord.llm._http import JsonPoster, endpoint, read_envelope
from accord.llm.answers import checked_response
from accord.llm.errors import ModelConfigError
from accord.llm.messages import ModelRequest, ModelResponse
from accord.llm.retry import RetryPolicy, Sleep
from accord.llm.tokens import usage_or_estimate


class AnthropicModel:
    """POSTs ``{base_url}/v1/messages`` with ``x-api-key`` and ``anthropic-version``.

    System messages become the ``system`` field; a requested schema is appended to it.
    """

    def __init__(
        self,
        model: str,
        api_key: str,
        *,
        base_url: str = "https://api.anthropic.com",
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
        anthropic_version: str = "2023-06-01",
    ) -> None:
        if not api_key:
            raise ModelConfigError("AnthropicModel needs a non-empty api_key")
        self.name = model
        self._url = endpoint(base_url, "v1/messages")
        self._headers = {
            "accept": "application/json",
            "x-api-key": api_key,
            "anthropic-version": anthropic_version,
        }
        self._poster = JsonPoster(
            timeout=timeout, retry=retry or RetryPolicy(), transport=transport, sleep=sleep
        )

    def __repr__(self) -> str:
        return f"AnthropicModel(url={self._url!r}, model={self.name!r})"

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Ask the API, then check the cap and the schema."""
        data = await self._poster.post(self._url, self.request_body(request), self._headers)
        reply = read_envelope(_Reply, data, "Anthropic")
        text = "".join(block.text or "" for block in reply.content if block.type == "text")
        usage = reply.usage or _Usage()
        counted, estimated = usage_or_estimate(
            request, text, usage.input_tokens, usage.output_tokens
        )
        return checked_response(
            request,
            text=text,
            usage=counted,
            model=reply.model or self.name,
            finish_reason=reply.stop_reason,
            usage_estimated=estimated,
        )

    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        """The JSON body sent for ``request``."""
        system = request.system_prompt
        if request.json_schema is not None:
            system = "\n\n".join(part for part in (system, schema_instruction(request)) if part)
        body: dict[str, Any] = {
            "model": self.name,
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "messages": [
                {"role": m.role, "content": m.content}
                for m in request.messages
                if m.role != "system"
            ],
        }
        if system:
            body["system"] = system
        return body


def schema_instruction(request: ModelRequest) -> str:
    """The words that ask for one JSON object valid against the request's schema."""
    schema = json.dumps(request.json_schema, indent=2, sort_keys=True)
    return (
        "Answer with exactly one JSON object and nothing else: no prose, no code fence. "
        f"It must be valid against this JSON Schema:\n{schema}"
    )


class _Usage(BaseModel):
    input_tokens: int | None = Field(default=None, ge=0)
    output_tokens: int | None = Field(default=None, ge=0)


class _Block(BaseModel):
    type: str
    text: str | None = None


class _Reply(BaseModel):
    content: list[_Block]
    usage: _Usage | None = None
    stop_reason: str | None = None
    model: str | None = None
