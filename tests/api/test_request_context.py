"""Every response names the server's own time (``Server-Timing: app;dur=<ms>``), so a client
or a benchmark can tell server time from its own overhead."""

from __future__ import annotations

import re

from litestar import Litestar
from litestar.testing import TestClient

from .conftest import Tokens


def _server_ms(header: str) -> float:
    found = re.fullmatch(r"app;dur=(\d+\.\d{2})", header)
    assert found is not None, header
    return float(found.group(1))


def test_an_answer_carries_the_server_time_it_took(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    answer = client.get("/api/v1/approvals", headers={"Authorization": f"Bearer {tokens.admin}"})
    assert answer.status_code == 200
    assert _server_ms(answer.headers["server-timing"]) >= 0


def test_a_refusal_carries_the_server_time_too(client: TestClient[Litestar]) -> None:
    answer = client.get("/api/v1/approvals")
    assert answer.status_code == 401
    assert _server_ms(answer.headers["server-timing"]) >= 0
