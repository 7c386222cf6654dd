"""Every exception class httpx exports maps to an intended ``ModelError`` code."""

from __future__ import annotations

import httpx
import pytest

from accord.llm import ModelError
from accord.llm._httpx_errors import (
    HTTPX_FAILURES,
    HttpxFailure,
    model_error_from_httpx,
    retry_after_seconds,
)

REQUEST = httpx.Request("POST", "http://127.0.0.1:8000/v1/chat/completions")

EXPECTED_CODES = {
    "HTTPError": "llm.error",
    "RequestError": "llm.unreachable",
    "TransportError": "llm.unreachable",
    "TimeoutException": "llm.timeout",
    "ConnectTimeout": "llm.timeout",
    "ReadTimeout": "llm.timeout",
    "WriteTimeout": "llm.timeout",
    "PoolTimeout": "llm.timeout",
    "NetworkError": "llm.unreachable",
    "ConnectError": "llm.unreachable",
    "ReadError": "llm.unreachable",
    "WriteError": "llm.unreachable",
    "CloseError": "llm.unreachable",
    "ProtocolError": "llm.unreachable",
    "LocalProtocolError": "llm.unreachable",
    "RemoteProtocolError": "llm.unreachable",
    "ProxyError": "llm.unreachable",
    "UnsupportedProtocol": "llm.config",
    "DecodingError": "llm.bad_response",
    "TooManyRedirects": "llm.http_error",
    "HTTPStatusError": "llm.http_error",
    "InvalidURL": "llm.config",
    "CookieConflict": "llm.error",
    "StreamError": "llm.error",
    "StreamConsumed": "llm.error",
    "StreamClosed": "llm.error",
    "ResponseNotRead": "llm.error",
    "RequestNotRead": "llm.error",
}


def httpx_exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class httpx exports, and every subclass of those it defines."""
    found: dict[str, type[BaseException]] = {}
    pending = [getattr(httpx, name) for name in httpx.__all__]
    while pending:
        value = pending.pop()
        is_error = isinstance(value, type) and issubclass(value, BaseException)
        if is_error and value.__module__.startswith("httpx") and value.__name__ not in found:
            found[value.__name__] = value
            pending.extend(value.__subclasses__())
    return found


def instance_of(kind: type[BaseException]) -> BaseException:
    if issubclass(kind, httpx.HTTPStatusError):
        response = httpx.Response(502, request=REQUEST, text="bad gateway")
        return kind("bad gateway", request=REQUEST, response=response)
    if issubclass(kind, httpx.RequestError):
        return kind("failed", request=REQUEST)
    if kind in (
        httpx.StreamConsumed,
        httpx.StreamClosed,
        httpx.ResponseNotRead,
        httpx.RequestNotRead,
    ):
        return kind()
    return kind("failed")


def test_the_expected_table_covers_exactly_the_exception_classes_httpx_has() -> None:
    assert set(httpx_exception_classes()) == set(EXPECTED_CODES)


@pytest.mark.parametrize("name", sorted(EXPECTED_CODES))
def test_each_httpx_exception_maps_to_its_intended_model_error(name: str) -> None:
    error = instance_of(httpx_exception_classes()[name])
    assert isinstance(error, HTTPX_FAILURES)
    mapped = model_error_from_httpx(error)
    assert isinstance(mapped, ModelError)
    assert mapped.code == EXPECTED_CODES[name]


def test_the_boundary_catches_every_httpx_exception_class() -> None:
    for kind in httpx_exception_classes().values():
        assert issubclass(kind, HTTPX_FAILURES), kind


def test_a_429_status_error_is_rate_limited_with_its_retry_after() -> None:
    response = httpx.Response(429, request=REQUEST, headers={"retry-after": "7"}, text="wait")
    error: HttpxFailure = httpx.HTTPStatusError("429", request=REQUEST, response=response)
    mapped = model_error_from_httpx(error)
    assert mapped.code == "llm.rate_limited"
    assert mapped.context == {"status": 429, "body": "wait", "retry_after": 7.0}


def test_a_streamed_status_error_without_a_read_body_keeps_an_empty_body() -> None:
    response = httpx.Response(500, request=REQUEST, stream=httpx.ByteStream(b"unread"))
    error = httpx.HTTPStatusError("500", request=REQUEST, response=response)
    assert model_error_from_httpx(error).context["body"] == ""


@pytest.mark.parametrize(
    ("header", "seconds"),
    [(None, None), ("2", 2.0), (" 1.5 ", 1.5), ("-1", None), ("inf", None), ("soon", None)],
)
def test_retry_after_is_read_in_seconds_only(header: str | None, seconds: float | None) -> None:
    assert retry_after_seconds(header) == seconds
