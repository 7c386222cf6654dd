"""Every response carries CSP, X-Frame-Options, nosniff and Referrer-Policy (issue 31)."""

from __future__ import annotations

import pytest
from litestar import Litestar
from litestar.testing import TestClient


@pytest.mark.parametrize(
    "path",
    [
        "/signin",
        "/queue",  # a redirect
        "/health",
        "/api/v1/approvals",  # 401, no key
        "/static/htmx.min.js",
        "/no/such/page",  # 404 no route produced
        "/schema",
    ],
)
def test_every_response_carries_the_security_headers(
    client: TestClient[Litestar], path: str
) -> None:
    answer = client.get(path, follow_redirects=False)
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"
    csp = answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp
    assert "object-src 'none'" in csp
    if not path.startswith("/schema"):
        assert "script-src 'self';" in csp  # no inline script on Accord's own pages
        assert "unsafe-inline" not in csp


def test_the_pages_need_no_inline_style_or_script(
    client: TestClient[Litestar], tokens: object
) -> None:
    page = client.get("/signin").text
    assert "style=" not in page
    assert "<script>" not in page
