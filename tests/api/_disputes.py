"""Two agents' dispute over HTTP, shared by the dispute route tests: ``agent:billing`` files
against ``agent:audit``."""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from tests.api.conftest import bearer

BILLING, AUDIT = "agent:billing", "agent:audit"


def post_dispute(client: TestClient[Litestar], token: str, url: str, body: Any = None) -> Any:
    """``POST /api/v1/disputes{url}`` with ``body`` as ``token``."""
    return client.post(f"/api/v1/disputes{url}", json=body, headers=bearer(token))


def open_gpu_dispute(client: TestClient[Litestar], keys: dict[str, str]) -> str:
    """The id of a medium resource conflict ``BILLING`` files against ``AUDIT``."""
    filing = {
        "dispute_type": "resource_conflict",
        "severity": "medium",
        "respondents": [AUDIT],
        "subject": "both booked the GPU for tonight",
    }
    answer = post_dispute(client, keys[BILLING], "", filing)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["record"]["dispute_id"])
