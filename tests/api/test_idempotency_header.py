"""``Idempotency-Key`` on POST /settle and /cases/{id}/park, and a long-poll's ``claim``: a
retry gets the stored result and writes nothing; the same key with another request is 409;
a key is the caller's own; another consumer of a resumed task still gets 409."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from accord.cases import Case
from tests.api.conftest import Tokens, bearer

INVOICE = {
    "subject": "Total of invoice 4411",
    "task_type": "invoicing",
    "positions": [
        {"agent": "agent:billing", "output": 1200, "confidence": 0.9},
        {"agent": "agent:audit", "output": 1450, "confidence": 0.7},
    ],
}


def _keyed(token: str, key: str) -> dict[str, str]:
    return {**bearer(token), "Idempotency-Key": key}


def test_a_retried_settle_returns_the_same_case_and_writes_nothing(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    first = client.post("/api/v1/settle", json=INVOICE, headers=_keyed(tokens.admin, "r1"))
    assert first.status_code == 200, first.text
    entries = accord.ledger.size()
    again = client.post("/api/v1/settle", json=INVOICE, headers=_keyed(tokens.admin, "r1"))
    assert again.status_code == 200
    assert again.json() == first.json()
    assert accord.ledger.size() == entries


def test_the_same_key_with_another_request_is_409_and_writes_nothing(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    client.post("/api/v1/settle", json=INVOICE, headers=_keyed(tokens.admin, "r2"))
    entries = accord.ledger.size()
    other = {**INVOICE, "subject": "Total of invoice 4412"}
    refused = client.post("/api/v1/settle", json=other, headers=_keyed(tokens.admin, "r2"))
    assert (refused.status_code, refused.json()["code"]) == (409, "idempotency.conflict")
    assert accord.ledger.size() == entries


def test_without_the_header_each_settle_is_a_new_case(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    ids = {
        client.post("/api/v1/settle", json=INVOICE, headers=bearer(tokens.admin)).json()["case_id"]
        for _ in range(2)
    }
    assert len(ids) == 2


def test_a_retried_park_returns_the_same_task_and_another_park_is_409(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    path = f"/api/v1/cases/{escalated.case_id}/park"
    first = client.post(path, json={"context": {"step": 1}}, headers=_keyed(tokens.agent, "p"))
    assert first.status_code == 201, first.text
    again = client.post(path, json={"context": {"step": 1}}, headers=_keyed(tokens.agent, "p"))
    assert again.json()["task_id"] == first.json()["task_id"]
    refused = client.post(path, json={"context": {"step": 2}}, headers=_keyed(tokens.agent, "p"))
    assert (refused.status_code, refused.json()["code"]) == (409, "idempotency.conflict")
    assert len(accord.parking.parked()) == 1


def test_the_same_claim_gets_the_same_resumption_and_another_consumer_gets_409(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    parked = client.post(
        f"/api/v1/cases/{escalated.case_id}/park",
        json={"context": {}},
        headers=bearer(tokens.agent),
    ).json()
    decided = client.post(
        f"/api/v1/approvals/{escalated.approval_item_id}/decision",
        json={"choice": "reject", "reasoning": "chargebacks"},
        headers=bearer(tokens.reviewer),
    )
    assert decided.status_code == 200, decided.text
    path = f"/api/v1/parked/{parked['task_id']}/decision"
    first = client.get(path, params={"claim": "worker-1"}, headers=bearer(tokens.agent))
    again = client.get(path, params={"claim": "worker-1"}, headers=bearer(tokens.agent))
    assert first.json()["resumed"] is True
    assert again.json() == first.json()
    for params in ({"claim": "worker-2"}, {}):
        refused = client.get(path, params=params, headers=bearer(tokens.agent))
        assert (refused.status_code, refused.json()["code"]) == (409, "approvals.already_resumed")
