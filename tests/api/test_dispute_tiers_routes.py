"""The three DCP-07 tiers over HTTP: parties negotiate and flip the coin as their key's
agent, panel members vote as theirs, a reviewer decides the appeal as its principal; every
step is signed with the acting principal's key the server holds; strangers get 403."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.dcp07.negotiation import commitment
from tests.api._dispute_clients import accord_fixture, keys_fixture
from tests.api._disputes import AUDIT, BILLING, open_gpu_dispute, post_dispute
from tests.api._reviewers import reviewer_config
from tests.api.conftest import bearer

POOL = ("arb:1", "arb:2", "arb:3")
PRINCIPAL = "human:controller"  # both parties' principal in the demo org chart


def _config(directory: Path) -> Path:
    path = reviewer_config(directory)
    config = json.loads(path.read_text(encoding="utf-8"))
    config["approvals"]["principals"][PRINCIPAL] = ["finance_approver"]
    config["arbitrators"] = {
        "single_organization": True,
        "members": [
            {
                "agent_id": agent,
                "principal_id": f"human:{agent.removeprefix('arb:')}",
                "organization_id": "acme",
                "vitality": 800,
            }
            for agent in POOL
        ],
    }
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path


accord = accord_fixture(
    _config, demo_reviewers=True, agents=(BILLING, AUDIT), arbitrators=POOL, reviewers=(PRINCIPAL,)
)
# An API key per acting agent, plus ``admin``, ``auditor``, a reviewer for the parties'
# principal and a stranger agent (it has a signing key too, so only the rule refuses it).
keys = keys_fixture(
    (BILLING, AUDIT, *POOL),
    strangers={"stranger": "agent:stranger"},
    reviewers={"appeal": PRINCIPAL},
)


def _status(client: TestClient[Litestar], keys: dict[str, str], dispute_id: str) -> Any:
    shown = client.get(f"/api/v1/disputes/{dispute_id}", headers=bearer(keys["auditor"]))
    record = shown.json()["record"]
    return record["status"], record["current_escalation_level"]


def _flip(client: TestClient[Litestar], keys: dict[str, str], dispute_id: str, choice: str) -> Any:
    nonces = {a: hashlib.sha256(a.encode()).digest() for a in (BILLING, AUDIT)}
    for agent, nonce in nonces.items():
        made = commitment(dispute_id, agent, nonce, choice)
        committed = post_dispute(
            client, keys[agent], f"/{dispute_id}/coin/commitments", {"commitment": made}
        )
        assert committed.status_code == 201, committed.text
    answer = None
    for agent, nonce in nonces.items():
        answer = post_dispute(
            client,
            keys[agent],
            f"/{dispute_id}/coin/reveals",
            {"nonce_hex": nonce.hex(), "choice": choice},
        )
        assert answer.status_code == 201, answer.text
    return answer.json() if answer is not None else None


def test_r07_a_proposal_both_parties_accept_over_http_resolves_the_dispute(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    proposed = post_dispute(
        client, keys[BILLING], f"/{dispute_id}/proposals", {"terms": "alternate nights"}
    )
    assert proposed.status_code == 201, proposed.text
    proposal = proposed.json()
    assert proposal["proposed_by"] == BILLING  # from the key, never the body
    state = client.get(f"/api/v1/disputes/{dispute_id}/negotiation", headers=bearer(keys[AUDIT]))
    assert [p["proposal_id"] for p in state.json()["proposals"]] == [proposal["proposal_id"]]
    accepted = post_dispute(
        client, keys[AUDIT], f"/{dispute_id}/proposals/{proposal['proposal_id']}/acceptance"
    )
    assert accepted.status_code == 200, accepted.text
    resolution = accepted.json()["resolution"]
    assert resolution["resolution_level"] == "direct_negotiation"
    assert _status(client, keys, dispute_id)[0] == "resolved"
    assert accord.disputes.show(dispute_id).resolution is not None
    again = post_dispute(client, keys[BILLING], f"/{dispute_id}/proposals", {"terms": "one more"})
    assert again.status_code in (409, 422)
    assert again.json()["requirement"]


def test_r07_a_stranger_cannot_negotiate_and_a_key_without_a_signing_key_is_refused(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    unkeyed = ApiKeyStore(accord.ledger, accord.clock).create("agent", agent_id="agent:keyless")[1]
    before = accord.ledger.size()  # issuing a key is a signed entry: count after it
    stranger = post_dispute(client, keys["stranger"], f"/{dispute_id}/proposals", {"terms": "mine"})
    assert stranger.status_code == 403
    assert (stranger.json()["code"], stranger.json()["requirement"]) == (
        "negotiation.not_a_party",
        "R7",
    )
    no_key = post_dispute(client, unkeyed, f"/{dispute_id}/proposals", {"terms": "mine"})
    assert no_key.status_code == 403
    assert (no_key.json()["code"], no_key.json()["field"]) == ("api.no_signing_key", "principal")
    read = client.get(
        f"/api/v1/disputes/{dispute_id}/negotiation", headers=bearer(keys["stranger"])
    )
    assert read.status_code == 403
    assert accord.ledger.size() == before


def test_r08_the_parties_commit_and_reveal_over_http(
    client: TestClient[Litestar], keys: dict[str, str]
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    early = client.get(f"/api/v1/disputes/{dispute_id}/coin/outcome", headers=bearer(keys[AUDIT]))
    assert early.status_code == 422
    assert early.json()["requirement"] == "R8"
    proposal = post_dispute(
        client, keys[BILLING], f"/{dispute_id}/proposals", {"terms": "I go first"}
    )
    flip = _flip(client, keys, dispute_id, proposal.json()["proposal_id"])
    assert sorted(r["agent_id"] for r in flip["reveals"]) == [AUDIT, BILLING]
    shown = client.get(f"/api/v1/disputes/{dispute_id}/coin", headers=bearer(keys[AUDIT]))
    stored = shown.json()["flip"]
    assert sorted(map(str, stored["reveals"])) == sorted(map(str, flip["reveals"]))
    assert sorted(map(str, stored["commits"])) == sorted(map(str, flip["commits"]))
    outcome = client.get(f"/api/v1/disputes/{dispute_id}/coin/outcome", headers=bearer(keys[AUDIT]))
    assert outcome.status_code == 200, outcome.text
    assert outcome.json()["winner"] in (BILLING, AUDIT)
    assert sorted(outcome.json()["revealed_by"]) == [AUDIT, BILLING]
    bad = post_dispute(
        client,
        keys[BILLING],
        f"/{dispute_id}/coin/reveals",
        {"nonce_hex": "00" * 32, "choice": "x"},
    )
    assert bad.status_code == 422
    assert bad.json()["requirement"] == "R8"


def test_r10_r14_a_panel_seated_over_http_resolves_on_its_members_votes(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    assert post_dispute(client, keys[AUDIT], f"/{dispute_id}/escalate", {}).status_code == 200
    assert _status(client, keys, dispute_id) == ("escalated", "contextual_arbitration")
    _flip(client, keys, dispute_id, "seed")
    for agent, nominees in ((BILLING, list(POOL[:2])), (AUDIT, [POOL[2]])):
        nominated = post_dispute(
            client, keys[agent], f"/{dispute_id}/nominations", {"agent_ids": nominees}
        )
        assert nominated.status_code == 201, nominated.text
        assert {n["nominated_by"] for n in nominated.json()["items"]} == {agent}
    question = {
        "question": "who keeps the GPU tonight?",
        "positions": {BILLING: "booked first", AUDIT: "month-end close"},
        "favours": BILLING,
        "resolution": "billing keeps the slot",
    }
    by_agent = post_dispute(client, keys[BILLING], f"/{dispute_id}/panel", question)
    assert by_agent.status_code == 403  # seating a panel is the operator's step
    seated = post_dispute(client, keys["admin"], f"/{dispute_id}/panel", question)
    assert seated.status_code == 201, seated.text
    members = [m["agent_id"] for m in seated.json()["members"]]
    assert sorted(members) == sorted(POOL)
    outsider = post_dispute(
        client, keys[BILLING], f"/{dispute_id}/panel/votes", {"vote": "approve", "reasoning": "me"}
    )
    assert outsider.status_code == 403  # a party holds no arbitrator key: it is not a member
    for member in members:
        voted = post_dispute(
            client,
            keys[member],
            f"/{dispute_id}/panel/votes",
            {"vote": "approve", "reasoning": f"{member}: booked first"},
        )
        assert voted.status_code == 201, voted.text
        assert voted.json()["agent_id"] == member
    panel = client.get(f"/api/v1/disputes/{dispute_id}/panel", headers=bearer(keys[AUDIT])).json()
    assert len(panel["panel"]["votes"]) == 3
    for member in members:
        if _status(client, keys, dispute_id)[0] == "resolved":
            break
        signed = post_dispute(client, keys[member], f"/{dispute_id}/panel/signatures")
        assert signed.status_code == 201, signed.text
    assert _status(client, keys, dispute_id)[0] == "resolved"
    resolution = accord.disputes.show(dispute_id).resolution
    assert resolution is not None
    assert resolution.resolution_level.value == "contextual_arbitration"


def test_r16_r17_the_parties_principal_decides_the_appeal_over_http(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    escalated = post_dispute(
        client, keys[BILLING], f"/{dispute_id}/escalate", {"to_tier": "human_appeal"}
    )
    assert escalated.status_code == 200
    decision = {"outcome": "billing keeps the slot", "reasoning": "it booked first"}
    treasurer = ApiKeyStore(accord.ledger, accord.clock).create(
        "reviewer", principal_id="human:treasurer"
    )[1]
    not_theirs = post_dispute(client, treasurer, f"/{dispute_id}/appeal/decision", decision)
    assert not_theirs.status_code == 422
    assert not_theirs.json()["requirement"] == "R16"
    assert (
        post_dispute(client, keys[BILLING], f"/{dispute_id}/appeal/decision", decision).status_code
        == 403
    )
    decided = post_dispute(client, keys["appeal"], f"/{dispute_id}/appeal/decision", decision)
    assert decided.status_code == 201, decided.text
    assert decided.json()["resolution_level"] == "human_appeal"
    assert [s["agent_id"] for s in decided.json()["signatures"]] == [PRINCIPAL]
    assert _status(client, keys, dispute_id)[0] == "resolved"


def test_r16_two_principals_decide_an_appeal_in_turn_each_with_only_its_own_key(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    """The parties' principals decide together (R16); over HTTP each key signs only for its
    own principal, so one proposes the decision and the other co-signs it; deciding alone is
    still refused, naming R16 and writing nothing."""
    outside = {"agent_id": "agent:ext", "principal_id": "human:treasurer", "organization_id": "x"}
    treasurer = ApiKeyStore(accord.ledger, accord.clock).create(
        "reviewer", principal_id="human:treasurer"
    )[1]
    filing = {
        "dispute_type": "resource_conflict",
        "severity": "medium",
        "respondents": [outside],
        "subject": "both booked the GPU for tonight",
    }
    opened = post_dispute(client, keys[BILLING], "", filing)
    assert opened.status_code == 201, opened.text
    dispute_id = opened.json()["record"]["dispute_id"]
    assert (
        post_dispute(client, keys[BILLING], f"/{dispute_id}/escalate", {"to_tier": "human_appeal"})
    ).status_code == 200
    before = accord.ledger.size()
    decision = {"outcome": "billing keeps the slot", "reasoning": "it booked first"}
    alone = post_dispute(client, keys["appeal"], f"/{dispute_id}/appeal/decision", decision)
    assert alone.status_code == 422
    assert (alone.json()["code"], alone.json()["field"], alone.json()["requirement"]) == (
        "appeal.wrong_principals",
        "reviewers",
        "R16",
    )
    assert accord.ledger.size() == before
    proposed = post_dispute(client, keys["appeal"], f"/{dispute_id}/appeal/proposals", decision)
    assert proposed.status_code == 201, proposed.text
    proposal = proposed.json()
    assert (proposal["signed_by"], proposal["outstanding"]) == ([PRINCIPAL], ["human:treasurer"])
    pending = client.get(
        f"/api/v1/disputes/{dispute_id}/appeal/proposal", headers=bearer(keys["auditor"])
    )
    assert pending.status_code == 200, pending.text
    assert pending.json()["proposal"]["proposal_id"] == proposal["proposal_id"]
    signatures = f"/{dispute_id}/appeal/proposals/{proposal['proposal_id']}/signatures"
    twice = post_dispute(client, keys["appeal"], signatures)
    assert (twice.status_code, twice.json()["code"], twice.json()["requirement"]) == (
        422,
        "appeal.already_signed",
        "R16",
    )
    assert post_dispute(client, keys[BILLING], signatures).status_code == 403
    signed = post_dispute(client, treasurer, signatures)
    assert signed.status_code == 201, signed.text
    resolution = signed.json()["resolution"]
    assert resolution["resolution_level"] == "human_appeal"
    assert sorted(s["agent_id"] for s in resolution["signatures"]) == [
        PRINCIPAL,
        "human:treasurer",
    ]
    assert _status(client, keys, dispute_id)[0] == "resolved"
    shown = accord.disputes.show(dispute_id).resolution
    assert shown is not None
    assert shown.resolution_id == proposal["proposal_id"]


def test_r07_an_acceptance_with_an_unknown_body_field_is_refused_naming_it(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    proposed = post_dispute(
        client, keys[BILLING], f"/{dispute_id}/proposals", {"terms": "alternate nights"}
    )
    url = f"/{dispute_id}/proposals/{proposed.json()['proposal_id']}/acceptance"
    refused = post_dispute(client, keys[AUDIT], url, {"accepted_by": BILLING})
    assert refused.status_code == 400, refused.text
    assert "accepted_by" in refused.text
    assert _status(client, keys, dispute_id)[0] != "resolved"
    accepted = post_dispute(client, keys[AUDIT], url, {})  # an empty object is no field
    assert accepted.status_code == 200, accepted.text
    assert _status(client, keys, dispute_id)[0] == "resolved"


def test_r14_r19_r20_a_member_proposes_a_resolution_with_an_action_over_http(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id = open_gpu_dispute(client, keys)
    assert post_dispute(client, keys[AUDIT], f"/{dispute_id}/escalate", {}).status_code == 200
    _flip(client, keys, dispute_id, "seed")
    for agent, nominees in ((BILLING, list(POOL[:2])), (AUDIT, [POOL[2]])):
        post_dispute(client, keys[agent], f"/{dispute_id}/nominations", {"agent_ids": nominees})
    question = {
        "question": "who keeps the GPU tonight?",
        "positions": {BILLING: "booked first", AUDIT: "month-end close"},
        "favours": BILLING,
        "resolution": "billing keeps the slot",
    }
    seated = post_dispute(client, keys["admin"], f"/{dispute_id}/panel", question)
    assert seated.status_code == 201, seated.text
    members = [m["agent_id"] for m in seated.json()["members"]]
    due = (accord.clock.now() + timedelta(days=7)).isoformat()
    proposal = {
        "favours": BILLING,
        "description": "billing keeps the slot; audit moves its run",
        "actions_required": [{"agent_id": AUDIT, "action": "move the run", "deadline": due}],
    }
    by_party = post_dispute(client, keys[BILLING], f"/{dispute_id}/panel/proposal", proposal)
    assert by_party.status_code == 403  # a party holds no arbitrator key: not a member
    proposed = post_dispute(client, keys[members[0]], f"/{dispute_id}/panel/proposal", proposal)
    assert proposed.status_code == 201, proposed.text
    put = proposed.json()["panel"]["question"]["proposal"]
    assert (put["proposed_by"], put["actions_required"][0]["action"]) == (
        members[0],
        "move the run",
    )
    nothing = post_dispute(client, keys[AUDIT], f"/{dispute_id}/panel/recommendation/acceptance")
    assert nothing.status_code == 422, nothing.text  # a binding panel recommends nothing (R15)
    assert nothing.json()["requirement"] == "R15"
    for member in members:
        post_dispute(
            client,
            keys[member],
            f"/{dispute_id}/panel/votes",
            {"vote": "approve", "reasoning": "ok"},
        )
    for member in members:
        if _status(client, keys, dispute_id)[0] == "resolved":
            break
        post_dispute(client, keys[member], f"/{dispute_id}/panel/signatures")
    (owed,) = accord.disputes.compliance.actions(dispute_id=dispute_id)
    assert (owed.agent_id, owed.action) == (AUDIT, "move the run")
