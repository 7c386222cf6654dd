"""The security headers every response carries, pages, JSON, static files and errors alike:
``Content-Security-Policy``, ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``
and ``Referrer-Policy: no-referrer``.

A Litestar ``before_send`` hook, so even a response no route produced (a 404, a refused
request) has them.
"""

from __future__ import annotations

from typing import Any, cast

from litestar.types import Message, Scope

#: The reviewer's pages load only their own vendored script and stylesheet: no inline script
#: or style, no framing, no plugins, forms post only to this origin.
PAGE_CSP = (
    b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: The OpenAPI viewers Litestar serves under /schema load their scripts from a CDN.
SCHEMA_CSP = (
    b"default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net "
    b"https://unpkg.com; style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net "
    b"https://unpkg.com https://fonts.googleapis.com; font-src 'self' https://fonts.gstatic.com; "
    b"img-src 'self' data: https:; worker-src 'self' blob:; object-src 'none'; "
    b"base-uri 'none'; frame-ancestors 'none'"
)
_COMMON = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The security headers of a response to ``path``."""
    schema = path == "/schema" or path.startswith("/schema/")
    return [(b"content-security-policy", SCHEMA_CSP if schema else PAGE_CSP), *_COMMON]


def add_security_headers(message: Message, scope: Scope) -> None:
    """The ``before_send`` hook: append the security headers to a response's start."""
    if message["type"] != "http.response.start":
        return
    start = cast(dict[str, Any], message)
    path = str(cast(dict[str, Any], scope).get("path", ""))
    start["headers"] = [*start.get("headers", ()), *security_headers(path)]
