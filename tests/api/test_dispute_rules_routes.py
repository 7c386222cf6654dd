"""After a resolution, over HTTP: a party reports compliance and objects as its key's agent,
a reviewer stays the resolution as its principal; strangers get 403."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore, create_app
from accord.app import Accord
from accord.cli.key_commands import register_new_key
from accord.clock import FrozenClock
from tests.api._reviewers import register_reviewers, reviewer_config
from tests.api.conftest import REFUND, Tokens, bearer
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


# --- non-compliance flags (R22), objections awaiting appeal (R29), the cross-check (R31) ---


def _fail_compliance(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, clock: FrozenClock, audit: str
) -> str:
    """A resolution audit must comply with, and a report that does not show it did."""
    dispute_id, _ = _resolved(client, tokens, accord, clock)
    other = accord.ledger.append("agent_action_reported", {"actor": BILLING, "action": "kept"})
    reported = _post(
        client, audit, f"/disputes/{dispute_id}/compliance-reports", {"entries": [other.seq]}
    )
    assert reported.status_code == 200, reported.text
    assert reported.json()["failed"]
    return dispute_id


def test_r22_repeated_non_compliance_flags_are_read_by_overseers_and_the_agent_itself(
    client: TestClient[Litestar],
    tokens: Tokens,
    accord: Accord,
    frozen_clock: FrozenClock,
    audit: str,
    stranger: str,
) -> None:
    flags = "/api/v1/compliance/flags"
    _fail_compliance(client, tokens, accord, frozen_clock, audit)
    assert client.get(flags, headers=bearer(tokens.auditor)).json()["items"] == []
    _fail_compliance(client, tokens, accord, frozen_clock, audit)
    for token in (tokens.reviewer, tokens.auditor, tokens.admin):
        listed = client.get(flags, headers=bearer(token))
        assert listed.status_code == 200, listed.text
        [flag] = listed.json()["items"]
        assert (flag["agent_id"], flag["failures"], flag["threshold"]) == (AUDIT, 2, 2)
        assert accord.ledger.get(flag["ledger_seq"]).event_type == "agent_noncompliance_flagged"
    own = client.get(flags, headers=bearer(audit))
    assert [f["agent_id"] for f in own.json()["items"]] == [AUDIT]
    assert client.get(flags, headers=bearer(stranger)).json()["items"] == []
    by_name = client.get(flags, params={"agent_id": AUDIT}, headers=bearer(tokens.auditor))
    assert [f["agent_id"] for f in by_name.json()["items"]] == [AUDIT]
    foreign = client.get(flags, params={"agent_id": AUDIT}, headers=bearer(stranger))
    assert foreign.status_code == 403
    assert foreign.json()["field"] == "agent_id"
    bad = client.get(flags, params={"agent_id": "has space"}, headers=bearer(tokens.auditor))
    assert bad.status_code == 400
    assert bad.json()["field"] == "agent_id"


def _rights_objection(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, clock: FrozenClock
) -> tuple[str, dict[str, Any]]:
    dispute_id, resolution_id = _resolved(client, tokens, accord, clock)
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
    return dispute_id, filed.json()


def test_r29_rights_objections_await_appeal_for_overseers_until_stayed(
    client: TestClient[Litestar],
    tokens: Tokens,
    accord: Accord,
    frozen_clock: FrozenClock,
    stranger: str,
) -> None:
    awaiting = "/api/v1/objections/awaiting-appeal"
    _, filed = _rights_objection(client, tokens, accord, frozen_clock)
    objection_id = filed["record"]["objection_id"]
    for token in (tokens.reviewer, tokens.auditor, tokens.admin):
        listed = client.get(awaiting, headers=bearer(token))
        assert listed.status_code == 200, listed.text
        assert [o["record"]["objection_id"] for o in listed.json()["items"]] == [objection_id]
        assert listed.json()["items"][0]["routed_to"] == "human_appeal"
    for token in (tokens.agent, stranger):  # agents read their own disputes' objections only
        refused = client.get(awaiting, headers=bearer(token))
        assert refused.status_code == 403
        assert refused.json()["field"] == "authorization"
    stayed = _post(client, tokens.reviewer, f"/objections/{objection_id}/stay", {"reason": "heard"})
    assert stayed.status_code == 201, stayed.text
    assert client.get(awaiting, headers=bearer(tokens.reviewer)).json()["items"] == []


def test_r27_one_objection_is_read_by_the_parties_and_overseers_not_by_a_stranger(
    client: TestClient[Litestar],
    tokens: Tokens,
    accord: Accord,
    frozen_clock: FrozenClock,
    audit: str,
    stranger: str,
) -> None:
    _, filed = _rights_objection(client, tokens, accord, frozen_clock)
    url = f"/api/v1/objections/{filed['record']['objection_id']}"
    for token in (tokens.agent, audit, tokens.reviewer, tokens.auditor, tokens.admin):
        shown = client.get(url, headers=bearer(token))
        assert shown.status_code == 200, shown.text
        assert shown.json() == filed
    foreign = client.get(url, headers=bearer(stranger))
    assert foreign.status_code == 403
    assert foreign.json()["field"] == "dispute_id"
    unknown = client.get(
        "/api/v1/objections/obj:00000000-0000-7000-8000-000000000000",
        headers=bearer(tokens.auditor),
    )
    assert unknown.status_code == 404
    malformed = client.get("/api/v1/objections/obj:nope", headers=bearer(tokens.auditor))
    assert malformed.status_code == 400
    assert malformed.json()["field"] == "objection_id"


def _chain(accord: Accord) -> list[dict[str, Any]]:
    return [entry.to_json_dict() for entry in accord.ledger.tail(1000)]


def test_r31_the_parties_chains_are_cross_checked_over_http_and_a_mismatch_named(
    client: TestClient[Litestar],
    tokens: Tokens,
    accord: Accord,
    frozen_clock: FrozenClock,
    stranger: str,
) -> None:
    dispute_id, resolution_id = _resolved(client, tokens, accord, frozen_clock)
    chain = _chain(accord)
    before = accord.ledger.size()
    body = {"chains": {"billing": chain, "audit": chain}, "dispute_id": dispute_id}
    for token in (tokens.agent, stranger, tokens.auditor):  # pure: the body is all it reads
        checked = _post(client, token, "/disputes/cross-check", body)
        assert checked.status_code == 200, checked.text
        report = checked.json()
        assert (report["dispute_id"], report["resolution_id"]) == (dispute_id, resolution_id)
        assert sorted(report["parties"]) == ["audit", "billing"]
    cut = [e for e in chain if e["event_type"] != "dispute_resolved"]
    mismatch = _post(
        client, tokens.agent, "/disputes/cross-check", {"chains": {"billing": chain, "audit": cut}}
    )
    assert mismatch.status_code == 422
    assert (mismatch.json()["code"], mismatch.json()["requirement"]) == (
        "dcp.cross_chain_mismatch",
        "R31",
    )
    broken = [{k: v for k, v in chain[0].items() if k != "seq"}, *chain[1:]]
    bad_entry = _post(
        client,
        tokens.agent,
        "/disputes/cross-check",
        {"chains": {"billing": chain, "audit": broken}},
    )
    assert bad_entry.status_code == 422
    assert bad_entry.json()["field"] == "chains.audit[0].seq"
    no_chains = _post(client, tokens.agent, "/disputes/cross-check", {"chains": {}})
    assert no_chains.status_code == 400
    assert no_chains.json()["field"] == "chains"
    assert accord.ledger.size() == before


@pytest.fixture
def owner_reviewing(
    database_url: str, tmp_path: Path, frozen_clock: FrozenClock
) -> Iterator[tuple[Accord, TestClient[Litestar], ApiKeyStore]]:
    """The API's company where human:controller, agent:billing's principal, also reviews."""
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    path = reviewer_config(config_dir)
    config = json.loads(path.read_text(encoding="utf-8"))
    config["approvals"]["principals"]["human:controller"] = ["finance_approver"]
    path.write_text(json.dumps(config), encoding="utf-8")
    opened = Accord.open(path, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    register_reviewers(opened)
    register_new_key(opened, None, "reviewer", "human:controller", None)
    with TestClient(create_app(opened, sweep_every=None)) as client:
        yield opened, client, ApiKeyStore(opened.ledger, opened.clock)
    opened.close()


def test_r28_a_reviewer_who_owns_a_party_may_not_stay_and_nothing_is_written(
    owner_reviewing: tuple[Accord, TestClient[Litestar], ApiKeyStore], frozen_clock: FrozenClock
) -> None:
    accord, client, keys = owner_reviewing
    tokens = Tokens(
        agent=keys.create("agent", agent_id=BILLING)[1],
        reviewer=keys.create("reviewer", principal_id="human:controller")[1],
        auditor=keys.create("auditor")[1],
        admin=keys.create("admin")[1],
    )
    dispute_id, resolution_id = _resolved(client, tokens, accord, frozen_clock)
    body: dict[str, Any] = {"resolution_id": resolution_id, "objection_type": "substantive"}
    body |= {"grounds": GROUNDS, "remedy": REMEDY}
    filed = _post(client, tokens.agent, f"/disputes/{dispute_id}/objections", body)
    assert filed.status_code == 201, filed.text
    objection_id = filed.json()["record"]["objection_id"]
    before = accord.ledger.size()
    stay = _post(client, tokens.reviewer, f"/objections/{objection_id}/stay", {"reason": "mine"})
    assert stay.status_code == 403
    refused = (stay.json()["code"], stay.json()["requirement"])
    assert refused == ("approvals.conflicted_decider", "R28")
    assert f"party {BILLING}" in stay.json()["message"]
    assert stay.json()["rule"] == "the actor is neither a party nor the owner of a party agent"
    assert accord.ledger.size() == before
    assert accord.disputes.objections.get(objection_id).stay is None


def test_a_reviewer_who_owns_a_party_agent_may_not_decide_its_case_over_http(
    owner_reviewing: tuple[Accord, TestClient[Litestar], ApiKeyStore],
) -> None:
    accord, client, keys = owner_reviewing
    case = accord.settle("Refund 18,000 to customer 5521", REFUND, task_type="refunds")
    assert case.approval_item_id is not None
    controller = keys.create("reviewer", principal_id="human:controller")[1]
    before = accord.ledger.size()
    answer = _post(
        client,
        controller,
        f"/approvals/{case.approval_item_id}/decision",
        {"choice": "reject", "reasoning": "mine"},
    )
    assert answer.status_code == 403
    assert answer.json()["code"] == "approvals.conflicted_decider"
    assert f"party {BILLING}" in answer.json()["message"]
    assert accord.ledger.size() == before
    assert accord.approvals.get(case.approval_item_id).is_pending
