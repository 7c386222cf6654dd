"""Answer a form with its fragment for htmx, or with a whole page when the browser posted the
form itself (no JavaScript)."""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.response import Template


def fragment(
    request: Request[Any, Any, Any], name: str, context: dict[str, Any], status: int = 200
) -> Template:
    """``name`` alone for an htmx request (``HX-Request``), else inside the page layout."""
    if request.headers.get("hx-request") == "true":
        return Template(name, context=context, status_code=status)
    return Template("fragment_page.html", context={**context, "fragment": name}, status_code=status)
