"""Request ids and request latency: an ASGI middleware around the whole app.

Each request gets an id (the client's ``X-Request-ID`` if it is short and plain, else a new
one), bound into structlog's context so every log line of the request carries it, echoed in
the response header, and placed in every error body. The latency lands in the metrics.
"""

from __future__ import annotations

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
                    message = cast(Message, {**message, "headers": headers})
                await send(message)

            with structlog.contextvars.bound_contextvars(request_id=request_id):
                try:
                    await app(scope, receive, send_with_id)
                finally:
                    route = _route_of(scope)
                    observe(method, route, status, time.perf_counter() - started)

        return middleware

    return wrap


def _route_of(scope: Scope) -> str:
    """The route pattern (``/api/v1/cases/{case_id:str}``), so metrics stay low-cardinality."""
    handler = cast(dict[str, Any], scope).get("route_handler")
    paths = getattr(handler, "paths", None)
    if paths:
        return str(sorted(paths)[0])
    return "unmatched"
