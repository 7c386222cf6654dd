"""Prepare-then-sign over HTTP (issue 13): a remote agent whose private key never reaches the
server drives a dispute from filing to its tier-1 resolution, signing every step itself;
stale, expired, replayed, wrongly signed and foreign completions are refused, writing nothing."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.dcp07.negotiation import commitment
from accord.disputes.tiers.prepared import PreparedStep, sign_payloads
from tests.api._dispute_clients import accord_fixture, keys_fixture
from tests.api._disputes import AUDIT, BILLING, open_gpu_dispute, post_dispute
from tests.api.conftest import bearer

STRANGER = "agent:stranger"
MINE = {"step": "propose", "terms": "mine"}


def _own_key(agent: str) -> Ed25519Signer:
    """The agent's private key, held by the agent only (never in the server's key folder)."""
    return Ed25519Signer.from_seed(hashlib.sha256(f"remote {agent}".encode()).digest())


accord = accord_fixture(agents=(BILLING, AUDIT, STRANGER), own_key=_own_key)
keys = keys_fixture((BILLING, AUDIT, STRANGER), roles=("auditor",))


def _prepare(
    client: TestClient[Litestar], keys: dict[str, str], agent: str, dispute_id: str, step: Any
) -> PreparedStep:
    answer = post_dispute(client, keys[agent], f"/{dispute_id}/prepared-steps", step)
    assert answer.status_code == 201, answer.text
    return PreparedStep.model_validate(answer.json())


def _signatures(
    prepared: PreparedStep, agent: str, step: Any, resolves_with: str | None = None
) -> dict[str, Any]:
    signed = sign_payloads(
        prepared,
        _own_key(agent),
        agent_id=agent,
        dispute_id=prepared.dispute_id,
        step=step,
        resolves_with=resolves_with,
    )
    return {"signatures": [s.model_dump() for s in signed]}


def _sign(
    client: TestClient[Litestar], token: str, prepared: PreparedStep, body: dict[str, Any]
) -> Any:
    url = f"/{prepared.dispute_id}/prepared-steps/{prepared.prepared_id}/signatures"
    return post_dispute(client, token, url, body)


def _by_own_key(
    client: TestClient[Litestar],
    keys: dict[str, str],
    agent: str,
    dispute_id: str,
    step: Any,
    resolves_with: str | None = None,
) -> Any:
    prepared = _prepare(client, keys, agent, dispute_id, step)
    while True:
        signed = _signatures(prepared, agent, step, resolves_with)
        answer = _sign(client, keys[agent], prepared, signed)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        if body["status"] == "completed":
            return body["result"]
        prepared = PreparedStep.model_validate(body["prepared"])


def _size(accord: Accord) -> int:
    return accord.ledger.size()


def test_a_remote_agent_negotiates_to_a_resolution_signing_every_step_itself(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    assert not any(accord.keyring.directory.glob("*agent*"))  # the server holds no agent key
    dispute_id = open_gpu_dispute(client, keys)
    evidence = {"step": "counter_evidence", "content_hash": "sha256:" + "ab" * 32,
                "description": "the audit window is statutory"}  # fmt: skip
    _by_own_key(client, keys, AUDIT, dispute_id, evidence)
    proposal = _by_own_key(
        client, keys, BILLING, dispute_id, {"step": "propose", "terms": "billing runs first"}
    )
    accept = {"step": "accept", "proposal_id": proposal["proposal_id"]}
    accepted = _by_own_key(client, keys, AUDIT, dispute_id, accept, "billing runs first")

    resolution = accepted["resolution"]
    assert [s["kid"] for s in resolution["signatures"]] == [
        _own_key(BILLING).kid,
        _own_key(AUDIT).kid,
    ]
    verified = client.get(
        f"/api/v1/disputes/{dispute_id}/resolution/verification", headers=bearer(keys["auditor"])
    )
    assert verified.status_code == 200, verified.text
    assert verified.json()["resolution_id"] == resolution["resolution_id"]
    assert accord.verify().entries > 0


def test_the_coin_flip_is_committed_and_revealed_by_the_agents_own_keys(
    client: TestClient[Litestar], keys: dict[str, str], frozen_clock: FrozenClock
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    nonces = {a: hashlib.sha256(a.encode()).digest() for a in (BILLING, AUDIT)}
    for agent, nonce in nonces.items():
        made = commitment(dispute_id, agent, nonce, "heads")
        _by_own_key(client, keys, agent, dispute_id, {"step": "commit", "commitment": made})
    frozen_clock.advance(timedelta(seconds=1))
    flip: Any = None
    for agent, nonce in nonces.items():
        reveal = {"step": "reveal", "nonce_hex": nonce.hex(), "choice": "heads"}
        flip = _by_own_key(client, keys, agent, dispute_id, reveal)
    assert sorted(r["agent_id"] for r in flip["reveals"]) == [AUDIT, BILLING]


def test_a_stale_prepared_step_is_refused_and_nothing_is_written(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    prepared = _prepare(client, keys, BILLING, dispute_id, MINE)
    _by_own_key(client, keys, AUDIT, dispute_id, {"step": "propose", "terms": "mine, not yours"})
    size = _size(accord)

    answer = _sign(client, keys[BILLING], prepared, _signatures(prepared, BILLING, MINE))

    assert answer.status_code == 409, answer.text
    assert answer.json()["code"] == "disputes.prepared_stale"
    assert _size(accord) == size


def test_an_expired_prepared_step_is_refused(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord, frozen_clock: FrozenClock
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    prepared = _prepare(client, keys, BILLING, dispute_id, MINE)
    frozen_clock.advance(prepared.expires_at - prepared.prepared_at)
    size = _size(accord)

    answer = _sign(client, keys[BILLING], prepared, _signatures(prepared, BILLING, MINE))

    assert answer.status_code == 409, answer.text
    assert answer.json()["code"] == "disputes.prepared_expired"
    assert _size(accord) == size


def test_a_replayed_completion_is_refused(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    made = commitment(dispute_id, BILLING, bytes(32), "heads")
    prepared = _prepare(client, keys, BILLING, dispute_id, {"step": "commit", "commitment": made})
    body = _signatures(prepared, BILLING, {"step": "commit", "commitment": made})
    assert _sign(client, keys[BILLING], prepared, body).json()["status"] == "completed"
    size = _size(accord)

    again = _sign(client, keys[BILLING], prepared, body)

    assert again.status_code == 409, again.text
    assert again.json()["code"] == "disputes.prepared_consumed"
    assert _size(accord) == size


def test_a_signature_by_a_key_not_the_agents_is_refused_naming_the_payload(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    prepared = _prepare(client, keys, BILLING, dispute_id, MINE)
    wrong = _own_key(AUDIT)
    forged = sign_payloads(
        prepared.model_copy(update={"kid": wrong.kid}),
        wrong,
        agent_id=BILLING,
        dispute_id=dispute_id,
        step=MINE,
    )
    size = _size(accord)

    answer = _sign(
        client, keys[BILLING], prepared, {"signatures": [s.model_dump() for s in forged]}
    )

    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "signatures[0]"
    assert _size(accord) == size


def test_another_agent_can_neither_complete_nor_act_for_the_preparer(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    prepared = _prepare(client, keys, BILLING, dispute_id, MINE)
    size = _size(accord)

    foreign = _sign(client, keys[AUDIT], prepared, _signatures(prepared, BILLING, MINE))
    stranger = post_dispute(
        client, keys[STRANGER], f"/{dispute_id}/prepared-steps", {"step": "propose", "terms": "x"}
    )

    assert foreign.status_code == 403, foreign.text
    assert foreign.json()["code"] == "disputes.prepared_not_yours"
    assert stranger.status_code == 403, stranger.text
    assert _size(accord) == size


def test_the_step_body_is_bounded_and_closed(
    client: TestClient[Litestar], keys: dict[str, str]
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    url = f"/{dispute_id}/prepared-steps"

    unknown = post_dispute(client, keys[BILLING], url, {"step": "withdraw"})
    extra = post_dispute(client, keys[BILLING], url, {"step": "propose", "terms": "x", "by": AUDIT})
    long = post_dispute(client, keys[BILLING], url, {"step": "propose", "terms": "x" * 20_001})

    assert [unknown.status_code, extra.status_code, long.status_code] == [400, 400, 400]


def test_both_routes_are_in_the_openapi(client: TestClient[Litestar]) -> None:
    paths = json.loads(client.get("/schema/openapi.json").text)["paths"]
    assert "post" in paths["/api/v1/disputes/{dispute_id}/prepared-steps"]
    assert "post" in paths["/api/v1/disputes/{dispute_id}/prepared-steps/{prepared_id}/signatures"]
