"""Collecting over HTTP: each agent files its own position with its own key; the last one
settles the case through settle; the deadline sweep settles on what arrived or abandons;
wrong agents, second submissions and bad bodies are refused with nothing written."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.api.sweeper import Sweeper
from accord.app import Accord
from accord.app.deadline_sweep import deadline_sweep
from accord.cases.collecting import sign_position, verify_position_signature
from accord.clock import FrozenClock
from accord.conflicts import Position
from accord.crypto import Ed25519Signer
from accord.crypto.record_signature import RecordSignature
from tests.api.conftest import Tokens, bearer

QUESTION = {
    "subject": "Total of invoice 4411",
    "task_type": "invoicing",
    "parties": ["agent:billing", "agent:audit"],
    "within_seconds": 3600,
}


@pytest.fixture
def audit(keys: ApiKeyStore) -> str:
    return keys.create("agent", agent_id="agent:audit")[1]


@pytest.fixture
def stranger(keys: ApiKeyStore) -> str:
    return keys.create("agent", agent_id="agent:stranger")[1]


def _open(client: TestClient[Litestar], token: str, **changes: Any) -> dict[str, Any]:
    answer = client.post("/api/v1/collecting", json={**QUESTION, **changes}, headers=bearer(token))
    assert answer.status_code == 201, answer.text
    opened: dict[str, Any] = answer.json()
    return opened


def _submit(client: TestClient[Litestar], token: str, collecting_id: str, body: Any) -> Any:
    return client.post(
        f"/api/v1/collecting/{collecting_id}/position", json=body, headers=bearer(token)
    )


def test_two_agents_each_file_their_own_position_and_the_last_settles_the_case(
    client: TestClient[Litestar], tokens: Tokens, audit: str, accord: Accord
) -> None:
    opened = _open(client, tokens.agent)
    assert opened["opened_by"] == "agent:billing"
    assert opened["missing"] == ["agent:billing", "agent:audit"]
    cid = opened["collecting_id"]
    first = _submit(client, tokens.agent, cid, {"output": 1200, "confidence": 0.9})
    assert first.status_code == 200, first.text
    assert first.json()["submitted"] == ["agent:billing"]
    assert "output" not in first.text  # nobody sees another's answer before it settles
    last = _submit(client, audit, cid, {"output": 1450, "confidence": 0.7, "reasoning": "fee"})
    assert last.status_code == 200
    settled = last.json()
    assert settled["status"] == "settled"
    case = client.get(f"/api/v1/cases/{settled['case_id']}", headers=bearer(audit)).json()
    assert case["winner"] == "agent:billing"
    assert [p["agent"] for p in case["positions"]] == ["agent:billing", "agent:audit"]
    shown = client.get(f"/api/v1/collecting/{cid}", headers=bearer(tokens.auditor))
    assert shown.json() == settled
    assert accord.verify(workers=1).cases == 1


def test_a_second_submission_is_409_and_a_non_party_403(
    client: TestClient[Litestar], tokens: Tokens, stranger: str
) -> None:
    cid = _open(client, tokens.admin)["collecting_id"]
    assert _submit(client, tokens.agent, cid, {"output": 1}).status_code == 200
    again = _submit(client, tokens.agent, cid, {"output": 2})
    assert again.status_code == 409
    assert again.json()["code"] == "collecting.already_submitted"
    outsider = _submit(client, stranger, cid, {"output": 3})
    assert outsider.status_code == 403
    assert outsider.json()["code"] == "collecting.not_a_party"
    shown = client.get(f"/api/v1/collecting/{cid}", headers=bearer(tokens.admin)).json()
    assert shown["submitted"] == ["agent:billing"]


def test_only_an_agent_key_submits_and_no_key_speaks_for_another_agent(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    cid = _open(client, tokens.admin)["collecting_id"]
    assert _submit(client, tokens.admin, cid, {"output": 1}).status_code == 403
    assert _submit(client, tokens.reviewer, cid, {"output": 1}).status_code == 403
    naming = _submit(client, tokens.agent, cid, {"agent": "agent:audit", "output": 1})
    assert naming.status_code == 400  # the body has no agent field: identity is the key's
    assert naming.json()["code"] == "request.invalid"
    assert client.post("/api/v1/collecting", json=QUESTION).status_code == 401


def test_the_sweep_at_the_deadline_settles_on_what_arrived(
    client: TestClient[Litestar], tokens: Tokens, audit: str, accord: Accord,
    frozen_clock: FrozenClock,
) -> None:  # fmt: skip
    cid = _open(client, tokens.agent, parties=["agent:billing", "agent:audit", "agent:ops"])[
        "collecting_id"
    ]
    _submit(client, tokens.agent, cid, {"output": 1200, "confidence": 0.9})
    _submit(client, audit, cid, {"output": 1450, "confidence": 0.6})
    frozen_clock.advance(timedelta(hours=1))
    late = _submit(client, tokens.agent, cid, {"output": 1})
    assert late.status_code == 409
    sweep = deadline_sweep(accord.db, accord.clock, accord.approvals, collecting=accord.collecting)
    assert [f.handled.outcome for f in sweep.run().fired] == ["settled"]
    shown = client.get(f"/api/v1/collecting/{cid}", headers=bearer(tokens.agent)).json()
    assert (shown["status"], shown["missing"], shown["closed_reason"]) == (
        "settled",
        ["agent:ops"],
        "deadline_passed",
    )
    assert client.get(f"/api/v1/cases/{shown['case_id']}", headers=bearer(audit)).status_code == 200


def test_the_sweep_abandons_a_case_with_one_position(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    cid = _open(client, tokens.agent)["collecting_id"]
    _submit(client, tokens.agent, cid, {"output": 1200})
    frozen_clock.advance(timedelta(hours=2))
    sweep = deadline_sweep(accord.db, accord.clock, accord.approvals, collecting=accord.collecting)
    assert [f.handled.outcome for f in sweep.run().fired] == ["abandoned"]
    page = client.get(
        "/api/v1/collecting", params={"status": "abandoned"}, headers=bearer(tokens.agent)
    ).json()
    assert [c["collecting_id"] for c in page["items"]] == [cid]
    assert page["next_before"] is None
    assert accord.cases.total() == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**QUESTION, "within_seconds": 0}, "within_seconds"),
        ({**QUESTION, "within_seconds": 31 * 86400}, "within_seconds"),
        ({**QUESTION, "within_seconds": "soon"}, "within_seconds"),
        ({**QUESTION, "parties": ["agent:billing"]}, "parties"),
        ({**QUESTION, "parties": ["a:\x00", "a:2"]}, "parties.0"),
        ({**QUESTION, "unknown": 1}, None),
        ({k: v for k, v in QUESTION.items() if k != "subject"}, "subject"),
    ],
)
def test_a_malformed_question_is_400_naming_the_field(
    client: TestClient[Litestar], tokens: Tokens, body: Any, field: str | None
) -> None:
    answer = client.post("/api/v1/collecting", json=body, headers=bearer(tokens.admin))
    assert answer.status_code == 400
    error = answer.json()
    assert error["code"] == "request.invalid"
    if field is not None:
        assert error["field"] == field
    listed = client.get("/api/v1/collecting", headers=bearer(tokens.admin)).json()
    assert listed["items"] == []


def test_a_rule_the_library_enforces_is_422_naming_the_field(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    twice = client.post(
        "/api/v1/collecting",
        json={**QUESTION, "parties": ["agent:billing", "agent:billing"]},
        headers=bearer(tokens.admin),
    )
    assert twice.status_code == 422
    assert twice.json()["field"] == "parties"
    cid = _open(client, tokens.admin)["collecting_id"]
    bad = _submit(client, tokens.agent, cid, {"output": [1, 2]})
    assert bad.status_code == 422
    assert bad.json()["field"] == "position.output"
    assert bad.json()["rule"]


def test_oversized_and_too_deep_bodies_are_refused_and_nothing_is_written(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    cid = _open(client, tokens.admin)["collecting_id"]
    huge = _submit(client, tokens.agent, cid, {"output": "x" * 70_000})
    assert huge.status_code == 413
    deep = client.post(
        f"/api/v1/collecting/{cid}/position",
        content=b'{"output": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        headers={**bearer(tokens.agent), "Content-Type": "application/json"},
    )
    assert deep.status_code == 422
    assert deep.json()["code"] == "limits.exceeded"
    assert deep.json()["field"] == "body"
    for raw in (b"{", b"null", b""):
        malformed = client.post(
            f"/api/v1/collecting/{cid}/position",
            content=raw,
            headers={**bearer(tokens.agent), "Content-Type": "application/json"},
        )
        assert malformed.status_code == 400
    shown = client.get(f"/api/v1/collecting/{cid}", headers=bearer(tokens.admin)).json()
    assert shown["submitted"] == []


def test_an_unknown_case_is_404_and_pages_follow_next_before(
    client: TestClient[Litestar], tokens: Tokens, frozen_clock: FrozenClock
) -> None:
    missing = _submit(client, tokens.agent, "coll:nope", {"output": 1})
    assert missing.status_code == 404
    assert (
        client.get("/api/v1/collecting/coll:nope", headers=bearer(tokens.agent)).status_code == 404
    )
    older = _open(client, tokens.admin)["collecting_id"]
    frozen_clock.advance(timedelta(milliseconds=5))
    newer = _open(client, tokens.admin)["collecting_id"]
    first = client.get(
        "/api/v1/collecting", params={"limit": 1}, headers=bearer(tokens.agent)
    ).json()
    assert [c["collecting_id"] for c in first["items"]] == [newer]
    second = client.get(
        "/api/v1/collecting",
        params={"limit": 1, "before": first["next_before"], "party": "agent:audit"},
        headers=bearer(tokens.agent),
    ).json()
    assert [c["collecting_id"] for c in second["items"]] == [older]
    bad = client.get("/api/v1/collecting", params={"status": "nope"}, headers=bearer(tokens.agent))
    assert bad.status_code == 422
    assert bad.json()["field"] == "status"


def test_an_agent_signs_its_own_position_with_its_own_key_and_a_bad_signature_is_refused(
    client: TestClient[Litestar], tokens: Tokens, audit: str, accord: Accord
) -> None:
    billing_key = Ed25519Signer.from_seed(b"\x05" * 32)  # lives with the agent, not the server
    accord.ledger.register_key(billing_key.public_key, "agent", "agent:billing")
    cid = _open(client, tokens.admin)["collecting_id"]
    body = {"output": 1200, "confidence": 0.9, "reasoning": "ERP total"}
    position = Position.model_validate({**body, "agent": "agent:billing"})
    signature = sign_position(cid, position, billing_key).model_dump()
    tampered = _submit(
        client, tokens.agent, cid, {**body, "output": 1, "party_signature": signature}
    )
    assert tampered.status_code == 422
    assert tampered.json()["code"] == "crypto.signature_invalid"
    assert tampered.json()["field"].startswith("party_signature")
    foreign = sign_position(cid, position, Ed25519Signer.from_seed(b"\x06" * 32)).model_dump()
    unknown = _submit(client, tokens.agent, cid, {**body, "party_signature": foreign})
    assert unknown.status_code == 403
    assert unknown.json()["code"] == "collecting.unknown_signer"
    malformed = _submit(client, tokens.agent, cid, {**body, "party_signature": {"kid": "x"}})
    assert malformed.status_code == 400
    assert client.get(f"/api/v1/collecting/{cid}", headers=bearer(audit)).json()["submitted"] == []
    signed = _submit(client, tokens.agent, cid, {**body, "party_signature": signature})
    assert signed.status_code == 200, signed.text
    assert signed.json()["signed"] == ["agent:billing"]
    unsigned = _submit(client, audit, cid, {"output": 1450, "confidence": 0.5})
    assert unsigned.json()["signed"] == ["agent:billing"]
    stored = client.get(f"/api/v1/collecting/{cid}/signatures", headers=bearer(audit)).json()
    assert stored == {"signatures": {"agent:billing": signature}}
    case = accord.cases.get(unsigned.json()["case_id"])
    verify_position_signature(
        accord.ledger.key_registry(), cid, case.positions[0], RecordSignature(**signature)
    )


def test_the_services_own_sweeper_closes_collecting_cases(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    cid = _open(client, tokens.agent)["collecting_id"]
    frozen_clock.advance(timedelta(hours=1))
    assert asyncio.run(Sweeper(accord, 30.0).sweep_once()) == 1
    shown = client.get(f"/api/v1/collecting/{cid}", headers=bearer(tokens.agent)).json()
    assert (shown["status"], shown["closed_reason"]) == ("abandoned", "too_few_positions")


def test_an_agent_key_opens_only_a_case_it_is_party_to_and_an_admin_key_orchestrates(
    client: TestClient[Litestar], tokens: Tokens, stranger: str
) -> None:
    others = client.post("/api/v1/collecting", json=QUESTION, headers=bearer(stranger))
    assert others.status_code == 403
    assert others.json()["code"] == "approvals.not_a_party"
    assert others.json()["rule"] == "an agent acts only in a case it is party to"
    listed = client.get("/api/v1/collecting", headers=bearer(tokens.admin)).json()
    assert listed["items"] == []  # nothing written
    assert _open(client, tokens.admin)["opened_by"].startswith("admin:")
