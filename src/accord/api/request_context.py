"""Request ids and request latency: an ASGI middleware around the whole app.

Each request gets an id (the client's ``X-Request-ID`` if it is short and plain, else a new
one), bound into structlog's context so every log line of the request carries it, echoed in
the response header, and placed in every error body. The latency lands in the metrics, and
the server's time up to the response's first byte in a ``Server-Timing: app;dur=<ms>``
header (what the service benchmarks read, so client overhead is not counted).
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Callable
from typing import Any, cast

import structlog
from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

_SCOPE_KEY = "accord.request_id"
_CLIENT_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
HEADER = b"x-request-id"
SERVER_TIMING = b"server-timing"

LatencySink = Callable[[str, str, int, float], None]
"""(method, route, status, seconds) for each finished HTTP request."""


def request_id_of(scope: Scope) -> str | None:
    value = cast(dict[str, Any], scope).get(_SCOPE_KEY)
    return None if value is None else str(value)


def request_context(observe: LatencySink) -> Callable[[ASGIApp], ASGIApp]:
    """The middleware factory Litestar's ``middleware=[...]`` takes."""

    def wrap(app: ASGIApp) -> ASGIApp:
        async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != ScopeType.HTTP:
                await app(scope, receive, send)
                return
            method = str(cast(dict[str, Any], scope)["method"])
            given = dict(scope["headers"]).get(HEADER, b"").decode("latin-1")
            request_id = given if _CLIENT_ID.match(given) else secrets.token_hex(8)
            cast(dict[str, Any], scope)[_SCOPE_KEY] = request_id
            started = time.perf_counter()
            status = 500

            async def send_with_id(message: Message) -> None:
                nonlocal status
                if message["type"] == "http.response.start":
                    status = int(message["status"])
                    headers = list(message.get("headers", []))
                    headers.append((HEADER, request_id.encode("latin-1")))
                    took = (time.perf_counter() - started) * 1000
                    headers.append((SERVER_TIMING, b"app;dur=%.2f" % took))
                    message = cast(Message, {**message, "headers": headers})
                await send(message)

            # bind and reset by token: ``bound_contextvars`` first copies the whole context
            # to save the old values, which was ~4 % of a settle's time (issue 13)
            tokens = structlog.contextvars.bind_contextvars(request_id=request_id)
            try:
                if _has_nul(scope):
                    await _refuse_nul(send_with_id, request_id)
                    return
                await app(scope, receive, send_with_id)
            finally:
                structlog.contextvars.reset_contextvars(**tokens)
                route = _route_of(scope)
                observe(method, route, status, time.perf_counter() - started)

        return middleware

    return wrap


def _has_nul(scope: Scope) -> bool:
    """A NUL character in the path or query: no database column can hold it (PostgreSQL
    refuses it outright), so it is refused here, before any route sees it."""
    query = bytes(scope.get("query_string", b"")).lower()
    return "\x00" in scope["path"] or b"%00" in query or b"\x00" in query


async def _refuse_nul(send: Send, request_id: str) -> None:
    body = json.dumps(
        {
            "code": "request.invalid",
            "message": "the path or query contains a NUL character",
            "field": "url",
            "rule": "no NUL characters",
            "request_id": request_id,
        }
    ).encode()
    await send(
        cast(
            Message,
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            },
        )
    )
    await send(cast(Message, {"type": "http.response.body", "body": body}))


def _route_of(scope: Scope) -> str:
    """The route pattern (``/api/v1/cases/{case_id:str}``), so metrics stay low-cardinality."""
    handler = cast(dict[str, Any], scope).get("route_handler")
    paths = getattr(handler, "paths", None)
    if paths:
        return str(sorted(paths)[0])
    return "unmatched"
