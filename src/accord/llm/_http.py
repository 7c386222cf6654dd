"""HTTP plumbing shared by the providers: one JSON POST with timeout, retries and mapped errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from accord.llm._httpx_errors import HTTPX_FAILURES, model_error_from_httpx
from accord.llm.errors import ModelBadOutput, ModelConfigError
from accord.llm.retry import RetryPolicy, Sleep

E = TypeVar("E", bound=BaseModel)


def endpoint(base_url: str, path: str) -> str:
    """``base_url`` + ``path`` with one slash between; ``ModelConfigError`` unless http(s)."""
    try:
        url = httpx.URL(base_url)
    except httpx.InvalidURL as error:
        raise ModelConfigError(f"invalid base_url {base_url!r}: {error}") from error
    if url.scheme not in ("http", "https") or not url.host:
        raise ModelConfigError(f"base_url must be an http(s) URL, got {base_url!r}")
    return base_url.rstrip("/") + "/" + path.lstrip("/")


class JsonPoster:
    """POSTs a JSON body and returns the JSON object answered, retrying transient failures.

    An injected ``transport`` belongs to the caller and is never closed here; without
    one, each call uses (and closes) a fresh client, so the poster works across event loops.
    """

    def __init__(
        self,
        *,
        timeout: float,
        retry: RetryPolicy,
        transport: httpx.AsyncBaseTransport | None,
        sleep: Sleep,
    ) -> None:
        if not timeout > 0:
            raise ModelConfigError(f"timeout must be positive, got {timeout!r}")
        self._timeout = httpx.Timeout(timeout)
        self._retry = retry
        self._transport = transport
        self._sleep = sleep

    async def post(
        self, url: str, body: Mapping[str, Any], headers: Mapping[str, str]
    ) -> dict[str, Any]:
        """The answer's JSON object; raises only ``ModelError``."""

        async def once() -> dict[str, Any]:
            return await self._post_once(url, body, headers)

        return await self._retry.run(once, self._sleep)

    async def _post_once(
        self, url: str, body: Mapping[str, Any], headers: Mapping[str, str]
    ) -> dict[str, Any]:
        client = httpx.AsyncClient(transport=self._transport, timeout=self._timeout)
        try:
            response = await client.post(url, json=body, headers=dict(headers))
            response.raise_for_status()
        except HTTPX_FAILURES as error:
            raise model_error_from_httpx(error) from error
        finally:
            if self._transport is None:
                await client.aclose()
        try:
            data = response.json()
        except ValueError as error:
            raise ModelBadOutput(
                "the provider answered something that is not JSON",
                code="llm.bad_response",
                excerpt=response.text[:200],
            ) from error
        if not isinstance(data, dict):
            raise ModelBadOutput(
                "the provider answered JSON that is not an object", code="llm.bad_response"
            )
        return data


def read_envelope(shape: type[E], data: Mapping[str, Any], provider: str) -> E:
    """Validate a provider's answer envelope; ``ModelBadOutput`` (``llm.bad_response``) if off."""
    try:
        return shape.model_validate(data)
    except PydanticValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ModelBadOutput(
            f"unexpected {provider} answer at {where}: {first['msg']}",
            code="llm.bad_response",
            path=where,
        ) from None
