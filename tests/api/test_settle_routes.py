"""Settling over HTTP, and every kind of bad body refused with a 4xx and nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from tests.api.conftest import Tokens, bearer

INVOICE = {
    "subject": "Total of invoice 4411",
    "task_type": "invoicing",
    "positions": [
        {"agent": "agent:billing", "output": 1200, "confidence": 0.9},
        {"agent": "agent:audit", "output": 1450, "confidence": 0.7, "reasoning": "surcharge"},
    ],
}


def test_settling_one_case_answers_its_decision(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    answer = client.post("/api/v1/settle", json=INVOICE, headers=bearer(tokens.admin))
    assert answer.status_code == 200
    summary = answer.json()
    assert summary["status"] == "settled"
    assert summary["winner"] == "agent:billing"
    assert accord.cases.get(summary["case_id"]).subject == INVOICE["subject"]


def test_an_agreement_answers_with_no_confidence_because_nobody_decided(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    agreeing = {
        "subject": "Currency of invoice 4411",
        "positions": [{"agent": "a:1", "output": "EUR"}, {"agent": "a:2", "output": "EUR"}],
    }
    answer = client.post("/api/v1/settle", json=agreeing, headers=bearer(tokens.admin))
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "no_conflict"
    assert answer.json()["confidence"] is None


def test_a_batch_settles_every_case_in_order(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    second = {**INVOICE, "subject": "Total of invoice 4412"}
    answer = client.post(
        "/api/v1/settle/batch", json={"requests": [INVOICE, second]}, headers=bearer(tokens.admin)
    )
    assert answer.status_code == 200
    ids = [c["case_id"] for c in answer.json()]
    assert [accord.cases.get(i).subject for i in ids] == [INVOICE["subject"], second["subject"]]


def test_a_batch_with_one_bad_case_records_none(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    duplicate = {
        "subject": "Broken",
        "positions": [{"agent": "agent:a", "output": 1}, {"agent": "agent:a", "output": 2}],
    }
    answer = client.post(
        "/api/v1/settle/batch",
        json={"requests": [INVOICE, duplicate]},
        headers=bearer(tokens.admin),
    )
    assert answer.status_code == 422
    assert answer.json()["code"] == "conflicts.duplicate_agent"
    assert accord.cases.total() == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**INVOICE, "decided_by": "agent:root"}, "decided_by"),
        ({**INVOICE, "positions": [{"agent": "agent:a", "output": 1, "extra": 2}]}, None),
        ({**INVOICE, "subject": 42}, "subject"),
        ({**INVOICE, "positions": "agent:a"}, "positions"),
        ({**INVOICE, "positions": []}, "positions"),
        ({"positions": INVOICE["positions"]}, "subject"),
        ([INVOICE], None),
    ],
)
def test_unknown_fields_wrong_types_and_missing_fields_are_400(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, body: Any, field: str | None
) -> None:
    answer = client.post("/api/v1/settle", json=body, headers=bearer(tokens.admin))
    assert answer.status_code == 400
    error = answer.json()
    assert error["code"] == "request.invalid"
    if field is not None:
        assert error["field"] == field
    assert accord.cases.total() == 0


@pytest.mark.parametrize("raw", [b"{", b"\xff\xfe", b"null", b"", b"[1, 2"])
def test_malformed_json_is_400(client: TestClient[Litestar], tokens: Tokens, raw: bytes) -> None:
    answer = client.post(
        "/api/v1/settle",
        content=raw,
        headers={**bearer(tokens.admin), "Content-Type": "application/json"},
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "request.invalid"


def test_an_oversized_body_is_413_and_nothing_is_written(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    body = {**INVOICE, "subject": "x" * 70_000}  # the test app accepts 64 kB
    answer = client.post("/api/v1/settle", json=body, headers=bearer(tokens.admin))
    assert answer.status_code == 413
    assert answer.json()["code"] == "request.too_large"
    assert accord.cases.total() == 0


def test_a_rule_the_library_enforces_is_422_naming_the_field(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    body = {**INVOICE, "positions": [{"agent": "agent:a", "output": [1, 2]}]}
    answer = client.post("/api/v1/settle", json=body, headers=bearer(tokens.admin))
    assert answer.status_code == 422
    error = answer.json()
    assert error["code"].startswith("conflicts.")
    assert error["field"] == "output"
    assert error["rule"]


def test_a_case_settled_over_http_can_go_to_people(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    body = {
        "subject": "Refund 18,000 to customer 5521",
        "task_type": "refunds",
        "positions": [
            {"agent": "agent:billing", "output": "approve", "confidence": 0.7},
            {"agent": "agent:audit", "output": "reject", "confidence": 0.65},
        ],
    }
    answer = client.post("/api/v1/settle", json=body, headers=bearer(tokens.admin))
    assert answer.status_code == 200
    item = answer.json()["approval_item_id"]
    assert accord.approvals.get(item).is_pending


@pytest.mark.parametrize("field", ["subject", "task_type", "session_id"])
def test_a_nul_character_in_a_stored_field_is_400_not_a_database_error(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, field: str
) -> None:
    body = {**INVOICE, field: "a\x00b"}
    answer = client.post("/api/v1/settle", json=body, headers=bearer(tokens.admin))
    assert answer.status_code == 400
    assert answer.json()["field"] == field
    assert accord.cases.total() == 0
