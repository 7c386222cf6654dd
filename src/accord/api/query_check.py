"""Unknown or repeated query parameters are refused (400), as unknown body fields are: a
misspelt filter (``?staus=pending``) must not silently return everything, and
``?case_id=a&case_id=b`` must not silently mean one of them (every parameter is single)."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.exceptions import ValidationException

from accord.api.api_paths import is_api_request

_RESERVED = frozenset({"state", "request", "data", "headers", "cookies", "scope", "query"})


def refuse_unknown_query(request: Request[Any, Any, Any]) -> None:
    """A ``before_request`` hook: every query parameter of the JSON API must be one the
    handler declares (pages and static files ignore extra ones, as browsers expect)."""
    if not request.query_params or not is_api_request(request):
        return
    handler = request.route_handler
    known = set(handler.parsed_fn_signature.parameters) - _RESERVED
    for name in request.query_params:
        if name not in known:
            rule = "unknown query parameter"
        elif len(request.query_params.getall(name)) > 1:
            rule = "given more than once"
        else:
            continue
        raise ValidationException(
            detail=f"query parameter {name!r}: {rule}",
            extra=[{"key": name, "message": rule, "source": "query"}],
        )
