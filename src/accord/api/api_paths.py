"""Whether a request is one of the JSON API's (``/api/...``), read from the ASGI scope."""

from __future__ import annotations

from typing import Any

from litestar import Request


def is_api_request(request: Request[Any, Any, Any]) -> bool:
    """A request under ``/api/`` (the path as ``request.url`` has it, root path included),
    without building ``request.url`` (a parse of the whole URL, per request)."""
    scope = request.scope
    return (scope.get("root_path", "") + scope["path"]).startswith("/api/")
