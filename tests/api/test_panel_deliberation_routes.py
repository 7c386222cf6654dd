"""Agent members of a panel deliberate over HTTP through the service's model port (R14): each
member's key makes its own agent judge the positions (twice, swapped) and cast its signed vote;
non-members, other roles, bad bodies and a service without a model are refused, writing
nothing."""

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
from accord.llm import ModelRequest, ModelTimeout, ScriptedModel
from tests.api._dispute_clients import make_keys, open_accord
from tests.api._disputes import AUDIT, BILLING
from tests.api._disputes import open_gpu_dispute as _open
from tests.api._disputes import post_dispute as _post
from tests.api.test_dispute_tiers_routes import POOL, _config, _flip, _status

QUESTION = {
    "question": "who keeps the GPU tonight?",
    "positions": {BILLING: "booked first", AUDIT: "month-end close"},
    "favours": BILLING,
    "resolution": "billing keeps the slot",
}


def _for_billing(request: ModelRequest) -> dict[str, Any]:
    """A judge that names billing under whichever letter it was shown."""
    shown = request.messages[-1].content
    letter = "A" if shown.index("booked first") < shown.index("month-end close") else "B"
    return {"winner": letter, "reasoning": "the booking came first", "confidence": 0.8}


def _open_accord(
    database_url: str, tmp_path: Path, clock: FrozenClock, model: ScriptedModel | None
) -> Accord:
    def config(directory: Path) -> Path:
        path = _config(directory)
        if model is None:  # no model: section either (the demo configures a scripted one)
            document = json.loads(path.read_text(encoding="utf-8"))
            del document["model"]
            path.write_text(json.dumps(document), encoding="utf-8")
        return path

    return open_accord(
        config,
        database_url,
        tmp_path,
        clock,
        model=model,
        demo_reviewers=True,
        agents=(BILLING, AUDIT, "agent:stranger"),
        arbitrators=POOL,
    )


@pytest.fixture
def model() -> ScriptedModel:
    # two calls per member (positions swapped), and two for a member deliberating again
    return ScriptedModel([_for_billing] * 8)


@pytest.fixture
def accord(
    database_url: str, tmp_path: Path, frozen_clock: FrozenClock, model: ScriptedModel
) -> Iterator[Accord]:
    opened = _open_accord(database_url, tmp_path, frozen_clock, model)
    yield opened
    opened.close()


def _keys(accord: Accord) -> dict[str, str]:
    """An agent key per party and pool member, the stranger's, and admin, auditor and a
    reviewer."""
    made = make_keys(
        accord, (BILLING, AUDIT, *POOL, "agent:stranger"), reviewers={"reviewer": "human:treasurer"}
    )
    made["stranger"] = made.pop("agent:stranger")
    return made


def _seated(client: TestClient[Litestar], keys: dict[str, str]) -> tuple[str, list[str]]:
    dispute_id = _open(client, keys)
    assert _post(client, keys[AUDIT], f"/{dispute_id}/escalate", {}).status_code == 200
    _flip(client, keys, dispute_id, "seed")
    nominated = _post(client, keys[BILLING], f"/{dispute_id}/nominations", {"agent_ids": POOL})
    assert nominated.status_code == 201, nominated.text
    seated = _post(client, keys["admin"], f"/{dispute_id}/panel", QUESTION)
    assert seated.status_code == 201, seated.text
    return dispute_id, [m["agent_id"] for m in seated.json()["members"]]


def test_r14_agent_members_deliberate_over_http_and_their_signed_votes_resolve_the_dispute(
    client: TestClient[Litestar], accord: Accord, model: ScriptedModel
) -> None:
    keys = _keys(accord)
    dispute_id, members = _seated(client, keys)
    for member in members:
        answer = _post(client, keys[member], f"/{dispute_id}/panel/deliberation", {})
        assert answer.status_code == 200, answer.text
        [cast] = answer.json()["votes"]
        assert (cast["vote"]["agent_id"], cast["vote"]["vote"]) == (member, "approve")
        assert answer.json()["failures"] == []
    assert len(model.requests) == 6
    again = _post(client, keys[members[0]], f"/{dispute_id}/panel/deliberation", {})
    assert again.status_code in (409, 422), again.text  # each member votes once
    assert again.json()["requirement"] == "R14"
    panel = accord.disputes.tiers.arbitration.panel(dispute_id)
    assert panel is not None
    assert sorted(v.agent_id for v in panel.votes) == sorted(members)
    for member in members:
        if _status(client, keys, dispute_id)[0] == "resolved":
            break
        assert _post(client, keys[member], f"/{dispute_id}/panel/signatures").status_code == 201
    assert _status(client, keys, dispute_id)[0] == "resolved"


def test_r14_a_member_whose_model_fails_casts_no_vote_and_is_listed(
    database_url: str, tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    model = ScriptedModel([ModelTimeout("the judge timed out")])
    accord = _open_accord(database_url, tmp_path, frozen_clock, model)
    try:
        keys = _keys(accord)
        with TestClient(create_app(accord, sweep_every=None)) as client:
            dispute_id, members = _seated(client, keys)
            answer = _post(client, keys[members[0]], f"/{dispute_id}/panel/deliberation", {})
            assert answer.status_code == 200, answer.text
            assert answer.json()["votes"] == []
            [failure] = answer.json()["failures"]
            assert (failure["agent_id"], failure["code"]) == (members[0], "llm.timeout")
        panel = accord.disputes.tiers.arbitration.panel(dispute_id)
        assert panel is not None
        assert panel.votes == ()
    finally:
        accord.close()


def test_r14_non_members_other_roles_and_bad_bodies_are_refused_and_nothing_is_written(
    client: TestClient[Litestar], accord: Accord, model: ScriptedModel
) -> None:
    keys = _keys(accord)
    dispute_id, _ = _seated(client, keys)
    url = f"/{dispute_id}/panel/deliberation"
    before = accord.ledger.size()
    party = _post(client, keys[BILLING], url, {})
    assert party.status_code == 403  # a party holds no arbitrator key: it is no member
    assert party.json()["code"] == "api.no_signing_key"
    stranger = _post(client, keys["stranger"], url, {})
    assert stranger.status_code == 403
    for role in ("admin", "auditor", "reviewer"):
        refused = _post(client, keys[role], url, {})
        assert refused.status_code == 403
        assert refused.json()["field"] == "authorization"
    for body, field in (({"max_tokens": 0}, "max_tokens"), ({"agent_id": POOL[0]}, "agent_id")):
        bad = _post(client, keys[POOL[0]], url, body)
        assert bad.status_code == 400
        assert bad.json()["field"] == field
    assert accord.ledger.size() == before
    assert model.requests == []
    panel = accord.disputes.tiers.arbitration.panel(dispute_id)
    assert panel is not None
    assert panel.votes == ()


def test_r14_a_pool_member_not_seated_on_the_panel_cannot_deliberate(
    database_url: str, tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    model = ScriptedModel([_for_billing] * 2)
    accord = _open_accord(database_url, tmp_path, frozen_clock, model)
    try:
        register_new_key(accord, None, "arbitrator", "arb:outsider", None)
        keys = _keys(accord)
        store = ApiKeyStore(accord.ledger, accord.clock)
        outsider = store.create("agent", agent_id="arb:outsider")[1]
        with TestClient(create_app(accord, sweep_every=None)) as client:
            dispute_id, _ = _seated(client, keys)
            before = accord.ledger.size()
            answer = _post(client, outsider, f"/{dispute_id}/panel/deliberation", {})
            assert answer.status_code == 403, answer.text
            assert (answer.json()["code"], answer.json()["requirement"]) == (
                "panels.not_a_member",
                "R14",
            )
            assert accord.ledger.size() == before
            assert model.requests == []
    finally:
        accord.close()


def test_r14_a_service_without_a_model_refuses_deliberation_naming_it(
    database_url: str, tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    accord = _open_accord(database_url, tmp_path, frozen_clock, None)
    try:
        keys = _keys(accord)
        with TestClient(create_app(accord, sweep_every=None)) as client:
            dispute_id, members = _seated(client, keys)
            before = accord.ledger.size()
            answer = _post(client, keys[members[0]], f"/{dispute_id}/panel/deliberation", {})
            assert answer.status_code == 422
            assert (answer.json()["code"], answer.json()["field"]) == ("panels.no_model", "model")
            assert accord.ledger.size() == before
    finally:
        accord.close()
