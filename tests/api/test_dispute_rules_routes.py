"""After a resolution, over HTTP: a party reports compliance and objects as its key's agent,
a reviewer stays the resolution as its principal; strangers get 403."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.clock import FrozenClock
from tests.api.conftest import Tokens, bearer
from tests.disputes._rules import resolve

BILLING, AUDIT = "agent:billing", "agent:audit"
GROUNDS = {"summary": "the log was ignored", "detailed_reasoning": "log:1 shows billing first"}
REMEDY = {"type": "reconsideration", "description": "weigh the booking log"}


@pytest.fixture
def audit(keys: ApiKeyStore) -> str:
    return keys.create("agent", agent_id=AUDIT)[1]


@pytest.fixture
def stranger(keys: ApiKeyStore) -> str:
    return keys.create("agent", agent_id="agent:stranger")[1]


def _resolved(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, clock: FrozenClock
) -> tuple[str, str]:
    """A dispute billing filed over HTTP, resolved against audit: audit must release the GPU."""
    filing = {
        "dispute_type": "resource_conflict",
        "severity": "medium",
        "respondents": [AUDIT],
        "subject": "both booked the GPU for tonight",
    }
    opened = client.post("/api/v1/disputes", json=filing, headers=bearer(tokens.agent))
    assert opened.status_code == 201, opened.text
    dispute_id = opened.json()["record"]["dispute_id"]
    _, resolution = resolve(
        accord.disputes, clock, dispute_id=dispute_id, actions=[(AUDIT, "Release the GPU")]
    )
    return dispute_id, resolution.resolution_id


def _post(client: TestClient[Litestar], token: str, url: str, body: Any) -> Any:
    return client.post(f"/api/v1{url}", json=body, headers=bearer(token))


def test_r20_a_party_reports_compliance_as_its_keys_agent_and_it_is_verified(
    client: TestClient[Litestar],
    tokens: Tokens,
    accord: Accord,
    frozen_clock: FrozenClock,
    audit: str,
) -> None:
    dispute_id, _ = _resolved(client, tokens, accord, frozen_clock)
    actions = client.get(f"/api/v1/disputes/{dispute_id}/compliance", headers=bearer(audit))
    assert [(a["agent_id"], a["state"]) for a in actions.json()["actions"]] == [(AUDIT, "pending")]
    done = accord.ledger.append("agent_action_reported", {"actor": AUDIT, "action": "released"})
    by_billing = _post(
        client, tokens.agent, f"/disputes/{dispute_id}/compliance-reports", {"entries": [done.seq]}
    )
    assert by_billing.status_code == 404  # billing owes nothing: the report is audit's to make
    assert by_billing.json()["requirement"] == "R20"
    reported = _post(
        client, audit, f"/disputes/{dispute_id}/compliance-reports", {"entries": [done.seq]}
    )
    assert reported.status_code == 200, reported.text
    outcome = reported.json()
    assert outcome["agent_id"] == AUDIT
    assert [a["state"] for a in outcome["verified"]] == ["verified"]
    assert outcome["failed"] == []


def test_r27_r28_a_party_objects_and_a_reviewer_stays_the_resolution(
    client: TestClient[Litestar],
    tokens: Tokens,
    accord: Accord,
    frozen_clock: FrozenClock,
    stranger: str,
) -> None:
    dispute_id, resolution_id = _resolved(client, tokens, accord, frozen_clock)
    body = {
        "resolution_id": resolution_id,
        "objection_type": "substantive",
        "grounds": GROUNDS,
        "remedy": REMEDY,
    }
    before = accord.ledger.size()
    refused = _post(client, stranger, f"/disputes/{dispute_id}/objections", body)
    assert refused.status_code == 403
    assert refused.json()["requirement"] == "R27"
    assert accord.ledger.size() == before
    filed = _post(client, tokens.agent, f"/disputes/{dispute_id}/objections", body)
    assert filed.status_code == 201, filed.text
    objection = filed.json()["record"]
    assert objection["objecting_party"]["agent_id"] == BILLING
    listed = client.get(f"/api/v1/disputes/{dispute_id}/objections", headers=bearer(tokens.auditor))
    assert [o["record"]["objection_id"] for o in listed.json()["items"]] == [
        objection["objection_id"]
    ]
    stay_url = f"/objections/{objection['objection_id']}/stay"
    assert _post(client, tokens.agent, stay_url, {"reason": "mine"}).status_code == 403
    stayed = _post(client, tokens.reviewer, stay_url, {"reason": "the log needs a look"})
    assert stayed.status_code == 201, stayed.text
    assert stayed.json()["ordered_by"] == "human:treasurer"
    twice = _post(client, tokens.reviewer, stay_url, {"reason": "again"})
    assert twice.status_code == 409
    actions = accord.disputes.compliance.actions(dispute_id=dispute_id)
    assert [a.state.value for a in actions] == ["stayed"]


def test_r29_a_rights_objection_goes_to_human_appeal(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    dispute_id, resolution_id = _resolved(client, tokens, accord, frozen_clock)
    filed = _post(
        client,
        tokens.agent,
        f"/disputes/{dispute_id}/objections",
        {
            "resolution_id": resolution_id,
            "objection_type": "rights",
            "grounds": GROUNDS,
            "remedy": REMEDY,
        },
    )
    assert filed.status_code == 201, filed.text
    assert filed.json()["routed_to"] == "human_appeal"
    bad_type = _post(
        client,
        tokens.agent,
        f"/disputes/{dispute_id}/objections",
        {"resolution_id": resolution_id, "objection_type": "vibes", "grounds": GROUNDS,
         "remedy": REMEDY},
    )  # fmt: skip
    assert bad_type.status_code == 422
    assert bad_type.json()["requirement"] == "R27"
