"""Onboarding over HTTP (issue 30 item 6, issue 28 item 1): an admin issues and revokes API
keys and enrols an agent's own public key; each act is a signed ledger entry; an agent whose
private key never left it then signs its records with plain ``cryptography``."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.disputes.tiers.prepared import PreparedStep
from tests.api._dispute_clients import accord_fixture, keys_fixture
from tests.api._disputes import AUDIT, BILLING, open_gpu_dispute, post_dispute
from tests.api.conftest import bearer

accord = accord_fixture(agents=(AUDIT,))
keys = keys_fixture((BILLING, AUDIT), roles=("admin", "auditor"))


def _agent_private_key() -> Ed25519PrivateKey:
    """``BILLING``'s own key: made and kept on the agent's side, never sent."""
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"billing's own").digest())


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _raw_public(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def _pem_public(key: Ed25519PrivateKey) -> str:
    pem = key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    return pem.decode("ascii")


def _issue(client: TestClient[Litestar], token: str, body: dict[str, Any]) -> Any:
    return client.post("/api/v1/api-keys", json=body, headers=bearer(token))


def _enrol(client: TestClient[Litestar], token: str, public_key: str, agent: str = BILLING) -> Any:
    body = {"agent_id": agent, "public_key": public_key}
    return client.post("/api/v1/agent-keys", json=body, headers=bearer(token))


def _entries(accord: Accord, event_type: str) -> list[dict[str, Any]]:
    return [dict(e.record) for e in accord.ledger.entries() if e.event_type == event_type]


def test_an_admin_issues_an_agent_key_that_works_and_the_ledger_records_who_issued_it(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    answer = _issue(client, keys["admin"], {"role": "agent", "agent_id": BILLING, "label": "bot"})
    assert answer.status_code == 201, answer.text
    issued = answer.json()
    assert issued["key"]["agent_id"] == BILLING
    assert issued["token"].startswith("acc_")

    assert client.get("/api/v1/cases", headers=bearer(issued["token"])).status_code == 200
    [record] = [
        r for r in _entries(accord, "api_key_issued") if r["key_id"] == issued["key"]["key_id"]
    ]  # every key's issue is recorded (the fixture's admin key's too); this one names its issuer
    admin_id = next(
        k.key_id for k in ApiKeyStore(accord.ledger, accord.clock).list() if k.role.value == "admin"
    )
    assert record["by"] == admin_id
    assert issued["token"] not in str(record)
    assert accord.verify().entries > 0


def test_a_revoked_key_gets_401_from_its_next_request_and_the_revocation_is_recorded(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    issued = _issue(client, keys["admin"], {"role": "auditor"}).json()
    key_id = issued["key"]["key_id"]
    revoked = client.post(f"/api/v1/api-keys/{key_id}/revocation", headers=bearer(keys["admin"]))
    assert revoked.status_code == 200, revoked.text
    assert revoked.json()["revoked_at"] is not None

    refused = client.get("/api/v1/cases", headers=bearer(issued["token"]))
    assert refused.status_code == 401
    assert refused.json()["rule"] == "revoked"
    again = client.post(f"/api/v1/api-keys/{key_id}/revocation", headers=bearer(keys["admin"]))
    assert again.json()["revoked_at"] == revoked.json()["revoked_at"]
    assert [r["key_id"] for r in _entries(accord, "api_key_revoked")] == [key_id]
    listed = client.get("/api/v1/api-keys", headers=bearer(keys["admin"])).json()["items"]
    assert {k["key_id"] for k in listed if k["revoked_at"]} == {key_id}


def test_revoking_a_key_that_does_not_exist_is_404(
    client: TestClient[Litestar], keys: dict[str, str]
) -> None:
    answer = client.post("/api/v1/api-keys/key:nope/revocation", headers=bearer(keys["admin"]))
    assert answer.status_code == 404


@pytest.mark.parametrize("role", ["auditor", BILLING])
@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("post", "/api/v1/api-keys", {"role": "admin"}),
        ("get", "/api/v1/api-keys", None),
        ("post", "/api/v1/api-keys/key:x/revocation", None),
        ("post", "/api/v1/agent-keys", {"agent_id": BILLING, "public_key": "AAAA"}),
    ],
)
def test_only_an_admin_may_onboard_and_the_refusal_names_the_rule(
    client: TestClient[Litestar],
    keys: dict[str, str],
    accord: Accord,
    role: str,
    method: str,
    url: str,
    body: Any,
) -> None:
    size = accord.ledger.size()
    answer = client.request(method, url, json=body, headers=bearer(keys[role]))
    assert answer.status_code == 403, answer.text
    assert answer.json()["field"] == "authorization"
    assert answer.json()["rule"] == "role is one of admin"
    assert accord.ledger.size() == size


def test_a_key_bound_wrongly_for_its_role_is_refused_naming_the_field(
    client: TestClient[Litestar], keys: dict[str, str]
) -> None:
    answer = _issue(client, keys["admin"], {"role": "agent"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["code"] == "auth.bad_key_binding"


@pytest.mark.parametrize(
    "public_key",
    [
        "not base64!",
        _b64(b"\x01" * 31),  # 31 bytes
        _pem_public(_agent_private_key()).replace("MC", "MD", 1),  # a broken PEM
        X25519PrivateKey.from_private_bytes(b"\x02" * 32)
        .public_key()
        .public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
        .decode(),  # a key, but not an Ed25519 one
    ],
)
def test_a_public_key_that_is_not_ed25519_is_refused_naming_the_field_and_nothing_is_written(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord, public_key: str
) -> None:
    size = accord.ledger.size()
    answer = _enrol(client, keys["admin"], public_key)
    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "public_key"
    assert answer.json()["code"] == "keys.bad_public_key"
    assert accord.ledger.size() == size


def test_a_key_enrolled_twice_is_refused_the_second_time(
    client: TestClient[Litestar], keys: dict[str, str]
) -> None:
    raw = _b64(_raw_public(_agent_private_key()))
    assert _enrol(client, keys["admin"], raw).status_code == 201
    again = _enrol(client, keys["admin"], _pem_public(_agent_private_key()), agent=AUDIT)
    assert again.status_code == 409, again.text
    assert again.json()["field"] == "public_key"


def test_an_enrolled_public_key_verifies_what_the_agent_signs_with_plain_cryptography(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    private_key = _agent_private_key()
    enrolled = _enrol(client, keys["admin"], _pem_public(private_key))
    assert enrolled.status_code == 201, enrolled.text
    kid = enrolled.json()["kid"]
    assert not any(accord.keyring.directory.glob(f"*{BILLING.split(':')[1]}*"))

    dispute_id = open_gpu_dispute(client, keys)
    step = {"step": "propose", "terms": "billing runs first"}
    answer = post_dispute(client, keys[BILLING], f"/{dispute_id}/prepared-steps", step)
    assert answer.status_code == 201, answer.text
    prepared = PreparedStep.model_validate(answer.json())
    assert prepared.kid == kid
    while True:  # a later payload may carry the agent's earlier signature
        signatures = [
            {
                "sha256": p.sha256,
                "signature_b64": _b64(private_key.sign(base64.b64decode(p.payload_b64))),
            }
            for p in prepared.payloads
        ]
        url = f"/{dispute_id}/prepared-steps/{prepared.prepared_id}/signatures"
        done = post_dispute(client, keys[BILLING], url, {"signatures": signatures})
        assert done.status_code == 200, done.text
        if done.json()["status"] == "completed":
            break
        prepared = PreparedStep.model_validate(done.json()["prepared"])
    assert done.json()["result"]["terms"] == "billing runs first"
    assert accord.verify().entries > 0


def test_a_revoked_agent_key_no_longer_verifies_what_the_agent_signs(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    kid = _enrol(client, keys["admin"], _pem_public(_agent_private_key())).json()["kid"]
    url = f"/api/v1/agent-keys/{kid}/revocation"
    revoked = client.post(url, json={"reason": "laptop lost"}, headers=bearer(keys["admin"]))
    assert revoked.status_code == 200, revoked.text
    assert _entries(accord, "key_revoked")[-1] == {"kid": kid, "reason": "laptop lost"}

    dispute_id = open_gpu_dispute(client, keys)
    step = {"step": "propose", "terms": "billing runs first"}
    refused = post_dispute(client, keys[BILLING], f"/{dispute_id}/prepared-steps", step)
    assert refused.status_code == 403, refused.text
    assert refused.json()["code"] == "disputes.unknown_actor"  # no unrevoked key left to sign
    assert client.post(url, headers=bearer(keys["admin"])).status_code == 409
    assert accord.verify().entries > 0


def test_revoking_a_key_that_is_no_agent_key_is_404(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    service_kid = accord.ledger.signer.kid
    answer = client.post(
        f"/api/v1/agent-keys/{service_kid}/revocation", headers=bearer(keys["admin"])
    )
    assert answer.status_code == 404, answer.text
