"""JSON bodies nested deeper than ``limits.json_depth`` are refused (422 ``limits.exceeded``)
before Litestar parses them: its decoder recurses once per level, so a body of a few thousand
``[`` would otherwise end in a ``RecursionError`` (a 500), not in a refusal naming the limit."""

from __future__ import annotations

from typing import Any

from litestar import Request

from accord.api.api_paths import is_api_request
from accord.api.routes._state import accord_of
from accord.limits import exceeded
from accord.strict_json import nesting_depth

_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})


async def refuse_deep_body(request: Request[Any, Any, Any]) -> None:
    """A ``before_request`` hook for the JSON API's bodies (only requests that have one)."""
    if request.method not in _WITH_BODY or not is_api_request(request):
        return
    body = await request.body()
    limit = accord_of(request.app.state).config.settings.limits.json_depth
    if body.count(b"[") + body.count(b"{") <= limit:
        return  # nesting can go no deeper than the brackets opened (most bodies)
    depth = nesting_depth(body.decode("utf-8", errors="replace"), limit)
    if depth > limit:
        raise exceeded("json_depth", limit, depth, field="body", unit="levels of nesting")
