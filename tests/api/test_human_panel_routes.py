"""Human panel members over HTTP: each votes by deciding its ballot paper with the approval
decision route (its reviewer API key; the vote is signed with its principal's reviewer key),
the last vote takes the tally, and members sign the decided record as reviewers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from tests.api._dispute_clients import accord_fixture, keys_fixture
from tests.api._disputes import AUDIT, BILLING
from tests.api._disputes import open_gpu_dispute as _open
from tests.api._disputes import post_dispute as _post
from tests.api._reviewers import reviewer_config
from tests.api.conftest import bearer
from tests.api.test_dispute_tiers_routes import _flip, _status
from tests.api.test_reviewer_page import _csrf, _sign_in

POOL = ("arb:1", "arb:2", "arb:3")


def _principal(member: str) -> str:
    return f"human:{member.removeprefix('arb:')}"


def _config(directory: Path) -> Path:
    path = reviewer_config(directory)
    config = json.loads(path.read_text(encoding="utf-8"))
    for member in POOL:
        config["approvals"]["principals"][_principal(member)] = ["arbitrator"]
    config["arbitrators"] = {
        "single_organization": True,
        "members": [
            {
                "agent_id": member,
                "principal_id": _principal(member),
                "organization_id": "acme",
                "vitality": 800,
                "kind": "human",
            }
            for member in POOL
        ],
    }
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path


accord = accord_fixture(
    _config,
    demo_reviewers=True,
    agents=(BILLING, AUDIT),
    reviewers=tuple(_principal(m) for m in POOL),
)
keys = keys_fixture((BILLING, AUDIT), reviewers={m: _principal(m) for m in POOL})


def _decide(client: TestClient[Litestar], token: str, item_id: str, choice: str) -> Any:
    return client.post(
        f"/api/v1/approvals/{item_id}/decision",
        json={"choice": choice, "reasoning": f"I {choice}"},
        headers=bearer(token),
    )


def _seat(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> tuple[str, dict[str, str]]:
    dispute_id = _open(client, keys)
    assert _post(client, keys[AUDIT], f"/{dispute_id}/escalate", {}).status_code == 200
    _flip(client, keys, dispute_id, "seed")
    _post(client, keys[BILLING], f"/{dispute_id}/nominations", {"agent_ids": list(POOL[:2])})
    _post(client, keys[AUDIT], f"/{dispute_id}/nominations", {"agent_ids": [POOL[2]]})
    question = {
        "question": "who keeps the GPU tonight?",
        "positions": {BILLING: "booked first", AUDIT: "month-end close"},
        "favours": BILLING,
        "resolution": "billing keeps the slot",
    }
    seated = _post(client, keys["admin"], f"/{dispute_id}/panel", question)
    assert seated.status_code == 201, seated.text
    papers = {
        p.agent_id: p.item_id for p in accord.disputes.tiers.arbitration.ballot_papers(dispute_id)
    }
    assert sorted(papers) == sorted(POOL)

    return dispute_id, papers


def test_r14_human_members_vote_through_the_approval_decision_route(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id, papers = _seat(client, keys, accord)
    wrong = _decide(client, keys[POOL[1]], papers[POOL[0]], "approve")
    assert wrong.status_code == 422, wrong.text
    assert (wrong.json()["code"], wrong.json()["requirement"]) == (
        "panels.decided_by_someone_else",
        "R14",
    )
    for member in POOL:
        voted = _decide(client, keys[member], papers[member], "approve")
        assert voted.status_code == 200, voted.text
    panel = client.get(f"/api/v1/disputes/{dispute_id}/panel", headers=bearer(keys[AUDIT])).json()
    assert panel["panel"]["decision"] == "binding_resolution"  # no tally call
    assert sorted(v["agent_id"] for v in panel["panel"]["votes"]) == sorted(POOL)
    for member in POOL:
        if _status(client, keys, dispute_id)[0] == "resolved":
            break
        signed = _post(client, keys[member], f"/{dispute_id}/panel/signatures")
        assert signed.status_code == 201, signed.text
    assert _status(client, keys, dispute_id)[0] == "resolved"


def test_r14_the_reviewer_page_shows_a_ballot_paper_as_a_panel_vote_and_casts_it(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id, papers = _seat(client, keys, accord)
    member = POOL[0]
    _sign_in(client, keys[member])  # lands on the queue, ballot papers in it
    page = client.get(f"/cases/{papers[member]}")
    assert page.status_code == 200, page.text
    assert f"panel vote for <strong>{member}</strong>" in page.text
    assert f'href="/disputes/{dispute_id}"' in page.text
    assert "billing keeps the slot" in page.text
    answer = client.post(
        f"/cases/{papers[member]}/decision",
        data={"verdict": "2", "reasoning": "the statute wins", "_csrf_token": _csrf(page.text)},
    )
    assert answer.status_code == 200, answer.text
    seated = accord.disputes.tiers.arbitration.panel(dispute_id)
    assert seated is not None
    assert [(v.agent_id, v.vote) for v in seated.votes] == [(member, "dissent")]
    assert seated.reasoning[member] == "the statute wins"


def test_r14_a_disputes_ballot_papers_and_its_verified_resolution_are_read_over_http(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord
) -> None:
    dispute_id, papers = _seat(client, keys, accord)
    listed = client.get(
        f"/api/v1/disputes/{dispute_id}/panel/ballot-papers", headers=bearer(keys["auditor"])
    )
    assert listed.status_code == 200, listed.text
    assert {p["agent_id"]: p["item_id"] for p in listed.json()["papers"]} == papers
    path = f"/api/v1/disputes/{dispute_id}/resolution/verification"
    unresolved = client.get(path, headers=bearer(keys["auditor"]))
    assert unresolved.status_code == 422, unresolved.text  # nothing to verify yet
    for member in POOL:
        assert _decide(client, keys[member], papers[member], "approve").status_code == 200
    for member in POOL:
        if _status(client, keys, dispute_id)[0] == "resolved":
            break
        _post(client, keys[member], f"/{dispute_id}/panel/signatures")
    verified = client.get(path, headers=bearer(keys[AUDIT]))
    assert verified.status_code == 200, verified.text
    record = accord.disputes.show(dispute_id).resolution
    assert record is not None
    assert verified.json()["resolution_id"] == record.resolution_id
    assert len(verified.json()["signatures"]) >= 2  # M approving members signed (R19)
