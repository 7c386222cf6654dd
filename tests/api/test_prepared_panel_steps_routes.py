"""Prepare-then-sign at tier 2 over HTTP: the parties nominate and the panel members vote, tally
and sign the decided §6 record with their own keys, which the server never holds; foreign,
replayed, wrongly signed and out-of-place steps are refused, writing nothing, and the ledger
verifies afterwards."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from accord.app import Accord
from accord.clock import FrozenClock
from accord.dcp07.negotiation import commitment
from accord.dcp07.panels import PanelVote
from accord.dcp07.panels.votes import verify_vote
from accord.dcp07.resolution_record import ResolutionRecord
from accord.disputes.tiers.prepared import PreparedStep, sign_payloads
from tests.api._dispute_clients import accord_fixture, keys_fixture
from tests.api._disputes import AUDIT, BILLING, open_gpu_dispute, post_dispute
from tests.api.conftest import bearer
from tests.api.test_dispute_tiers_routes import POOL, _config, _status
from tests.api.test_prepared_steps_routes import (
    _by_own_key,
    _own_key,
    _prepare,
    _sign,
    _signatures,
)

OUTSIDER = "arb:outsider"  # a registered arbitrator key, but not in the pool nor on the panel
RESOLUTION = "billing keeps the slot"
QUESTION = {
    "question": "who keeps the GPU tonight?",
    "positions": {BILLING: "booked first", AUDIT: "month-end close"},
    "favours": BILLING,
    "resolution": RESOLUTION,
}
TALLY: dict[str, Any] = {"step": "tally"}
SIGN: dict[str, Any] = {"step": "sign_resolution"}


def _vote(member: str, choice: str = "approve") -> dict[str, Any]:
    return {"step": "vote", "vote": choice, "reasoning": f"{member}: the booking came first"}


# only the public halves of the parties' and the members' own keys reach the server
accord = accord_fixture(
    _config, agents=(BILLING, AUDIT), arbitrators=(*POOL, OUTSIDER), own_key=_own_key
)
keys = keys_fixture((BILLING, AUDIT, *POOL, OUTSIDER))


def _escalated_with_seed(
    client: TestClient[Litestar], keys: dict[str, str], frozen_clock: FrozenClock
) -> str:
    """A dispute at tier 2 whose coin flip (the panel's seed) both parties signed themselves."""
    dispute_id = open_gpu_dispute(client, keys)
    assert post_dispute(client, keys[AUDIT], f"/{dispute_id}/escalate", {}).status_code == 200
    nonces = {a: hashlib.sha256(a.encode()).digest() for a in (BILLING, AUDIT)}
    for agent, nonce in nonces.items():
        made = commitment(dispute_id, agent, nonce, "seed")
        _by_own_key(client, keys, agent, dispute_id, {"step": "commit", "commitment": made})
    frozen_clock.advance(timedelta(seconds=1))
    for agent, nonce in nonces.items():
        reveal = {"step": "reveal", "nonce_hex": nonce.hex(), "choice": "seed"}
        _by_own_key(client, keys, agent, dispute_id, reveal)
    return dispute_id


def _seated(
    client: TestClient[Litestar], keys: dict[str, str], frozen_clock: FrozenClock
) -> tuple[str, list[str], datetime]:
    """A seated panel (nominated by the parties' own keys): the dispute, its members in draw
    order, and its voting deadline."""
    dispute_id = _escalated_with_seed(client, keys, frozen_clock)
    for agent, nominees in ((BILLING, list(POOL[:2])), (AUDIT, [POOL[2]])):
        _by_own_key(client, keys, agent, dispute_id, {"step": "nominate", "agent_ids": nominees})
    seated = post_dispute(client, keys["admin"], f"/{dispute_id}/panel", QUESTION)
    assert seated.status_code == 201, seated.text
    formation = seated.json()
    members = [m["agent_id"] for m in formation["members"]]
    return dispute_id, members, datetime.fromisoformat(formation["vote_deadline"])


def _panel(client: TestClient[Litestar], keys: dict[str, str], dispute_id: str) -> Any:
    shown = client.get(f"/api/v1/disputes/{dispute_id}/panel", headers=bearer(keys["auditor"]))
    assert shown.status_code == 200, shown.text
    return shown.json()["panel"]


def _verified(client: TestClient[Litestar], keys: dict[str, str], dispute_id: str) -> Any:
    """The auditor's verification of the dispute's §6 resolution."""
    verified = client.get(
        f"/api/v1/disputes/{dispute_id}/resolution/verification", headers=bearer(keys["auditor"])
    )
    assert verified.status_code == 200, verified.text
    return verified.json()


def _resolution(accord: Accord, dispute_id: str) -> ResolutionRecord:
    resolution = accord.disputes.show(dispute_id).resolution
    assert resolution is not None
    return resolution


def test_the_parties_nominate_with_their_own_keys_and_a_nomination_signs_nothing(
    client: TestClient[Litestar], keys: dict[str, str], frozen_clock: FrozenClock
) -> None:
    dispute_id = _escalated_with_seed(client, keys, frozen_clock)
    step = {"step": "nominate", "agent_ids": list(POOL[:2])}

    prepared = _prepare(client, keys, BILLING, dispute_id, step)
    assert (prepared.role, prepared.kid, prepared.payloads) == ("agent", _own_key(BILLING).kid, ())
    done = _sign(client, keys[BILLING], prepared, _signatures(prepared, BILLING, step))

    assert done.status_code == 200, done.text
    assert (done.json()["status"], done.json()["prepared"]["signed"]) == ("completed", 0)
    items = done.json()["result"]["items"]
    assert [(n["nominated_by"], n["agent_id"]) for n in items] == [
        (BILLING, POOL[0]),
        (BILLING, POOL[1]),
    ]
    _by_own_key(client, keys, AUDIT, dispute_id, {"step": "nominate", "agent_ids": [POOL[2]]})
    seated = post_dispute(client, keys["admin"], f"/{dispute_id}/panel", QUESTION)
    assert seated.status_code == 201, seated.text
    assert sorted(n["nominated_by"] for n in seated.json()["nominations"]) == [
        AUDIT,
        BILLING,
        BILLING,
    ]


def test_a_replayed_foreign_or_out_of_pool_nomination_is_refused_and_nothing_is_written(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord, frozen_clock: FrozenClock
) -> None:
    dispute_id = _escalated_with_seed(client, keys, frozen_clock)
    url = f"/{dispute_id}/prepared-steps"
    step = {"step": "nominate", "agent_ids": [POOL[0]]}
    prepared = _prepare(client, keys, BILLING, dispute_id, step)
    body = _signatures(prepared, BILLING, step)
    foreign = _sign(client, keys[AUDIT], prepared, body)
    assert _sign(client, keys[BILLING], prepared, body).json()["status"] == "completed"
    size = accord.ledger.size()

    replayed = _sign(client, keys[BILLING], prepared, body)
    out_of_pool = post_dispute(
        client, keys[AUDIT], url, {"step": "nominate", "agent_ids": ["arb:nobody"]}
    )
    by_an_arbitrator = post_dispute(
        client, keys[POOL[1]], url, {"step": "nominate", "agent_ids": [POOL[2]]}
    )

    assert (foreign.status_code, foreign.json()["code"]) == (403, "disputes.prepared_not_yours")
    assert (replayed.status_code, replayed.json()["code"]) == (409, "disputes.prepared_consumed")
    assert (out_of_pool.status_code, out_of_pool.json()["code"]) == (422, "panels.not_in_pool")
    assert by_an_arbitrator.status_code == 403, by_an_arbitrator.text  # it holds no agent key
    assert by_an_arbitrator.json()["code"] == "disputes.unknown_actor"
    assert accord.ledger.size() == size


def test_panel_members_vote_and_sign_the_resolution_with_their_own_keys_and_the_ledger_verifies(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord, frozen_clock: FrozenClock
) -> None:
    dispute_id, members, _ = _seated(client, keys, frozen_clock)
    assert sorted(members) == sorted(POOL)
    for member in members[:-1]:
        cast = _by_own_key(client, keys, member, dispute_id, _vote(member), RESOLUTION)
        assert (cast["agent_id"], cast["vote"]) == (member, "approve")

    last = members[-1]
    prepared = _prepare(client, keys, last, dispute_id, _vote(last))
    assert (prepared.role, prepared.kid) == ("arbitrator", _own_key(last).kid)
    first = _sign(client, keys[last], prepared, _signatures(prepared, last, _vote(last)))
    assert first.status_code == 200, first.text
    assert first.json()["status"] == "awaiting_signatures"  # the last vote decides: sign the §6
    decided = PreparedStep.model_validate(first.json()["prepared"])
    assert decided.prepared_id == prepared.prepared_id
    assert "§6 resolution" in decided.payloads[0].what
    second = _sign(client, keys[last], decided, _signatures(decided, last, _vote(last), RESOLUTION))
    assert second.status_code == 200, second.text
    assert (second.json()["status"], second.json()["prepared"]["signed"]) == ("completed", 2)

    panel = _panel(client, keys, dispute_id)
    assert panel["decision"] == "binding_resolution"
    assert sorted(v["agent_id"] for v in panel["votes"]) == sorted(members)
    for vote in panel["votes"]:
        verify_vote(PanelVote.model_validate(vote), _own_key(vote["agent_id"]).public_key)
    pending = panel["pending_resolution"]
    assert [s["agent_id"] for s in pending["signatures"]] == [last]
    assert _status(client, keys, dispute_id)[0] != "resolved"  # one approving signature of M=2
    signed = _by_own_key(client, keys, members[0], dispute_id, SIGN, RESOLUTION)

    assert _status(client, keys, dispute_id) == ("resolved", "contextual_arbitration")
    assert _verified(client, keys, dispute_id)["resolution_id"] == pending["resolution_id"]
    assert signed["resolution_id"] == pending["resolution_id"]
    kids = {s.kid for s in _resolution(accord, dispute_id).signatures}
    assert kids == {_own_key(last).kid, _own_key(members[0]).kid}
    assert all(p.name.startswith("service") for p in accord.keyring.directory.iterdir())
    assert accord.verify().entries == accord.ledger.size()


def _forged(prepared: PreparedStep, member: str, by: str, step: dict[str, Any]) -> dict[str, Any]:
    """``member``'s payloads signed with ``by``'s key instead of its own."""
    wrong = _own_key(by)
    signed = sign_payloads(
        prepared.model_copy(update={"kid": wrong.kid}),
        wrong,
        agent_id=member,
        dispute_id=prepared.dispute_id,
        step=step,
        resolves_with=RESOLUTION,
    )
    return {"signatures": [s.model_dump() for s in signed]}


def _refusal(
    client: TestClient[Litestar], keys: dict[str, str], agent: str, dispute_id: str, step: Any
) -> Any:
    """The refusal of ``step`` by ``agent``: at prepare, or else when it signs and completes."""
    answer = post_dispute(client, keys[agent], f"/{dispute_id}/prepared-steps", step)
    if answer.status_code != 201:
        return answer
    prepared = PreparedStep.model_validate(answer.json())
    return _sign(client, keys[agent], prepared, _signatures(prepared, agent, step, RESOLUTION))


def test_a_vote_signed_with_another_members_key_is_refused_naming_the_signature(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord, frozen_clock: FrozenClock
) -> None:
    dispute_id, members, _ = _seated(client, keys, frozen_clock)
    member, other = members[0], members[1]
    prepared = _prepare(client, keys, member, dispute_id, _vote(member))
    size = accord.ledger.size()

    answer = _sign(client, keys[member], prepared, _forged(prepared, member, other, _vote(member)))

    assert answer.status_code == 422, answer.text
    assert answer.json()["field"] == "signatures[0]"
    assert accord.ledger.size() == size
    assert _panel(client, keys, dispute_id)["votes"] == []
    honest = _sign(client, keys[member], prepared, _signatures(prepared, member, _vote(member)))
    assert honest.json()["status"] == "completed", honest.text  # the refusal kept it usable


def test_a_non_member_a_party_and_a_second_vote_are_refused_and_nothing_is_written(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord, frozen_clock: FrozenClock
) -> None:
    dispute_id, members, _ = _seated(client, keys, frozen_clock)
    member = members[0]
    _by_own_key(client, keys, member, dispute_id, _vote(member), RESOLUTION)
    size = accord.ledger.size()

    outsider = _refusal(client, keys, OUTSIDER, dispute_id, _vote(OUTSIDER))
    party = _refusal(client, keys, BILLING, dispute_id, _vote(BILLING))
    again = _refusal(client, keys, member, dispute_id, _vote(member, "dissent"))

    assert (outsider.status_code, outsider.json()["code"]) == (403, "panels.not_a_member")
    assert (party.status_code, party.json()["code"]) == (403, "disputes.unknown_actor")
    assert (again.json()["code"], again.json()["requirement"]) == ("panels.second_vote", "R14")
    assert again.status_code == 422, again.text
    assert accord.ledger.size() == size
    assert [(v["agent_id"], v["vote"]) for v in _panel(client, keys, dispute_id)["votes"]] == [
        (member, "approve")
    ]


def test_another_members_prepared_vote_is_refused_and_one_prepared_before_a_vote_goes_stale(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord, frozen_clock: FrozenClock
) -> None:
    dispute_id, members, _ = _seated(client, keys, frozen_clock)
    member, other = members[0], members[1]
    prepared = _prepare(client, keys, member, dispute_id, _vote(member))
    body = _signatures(prepared, member, _vote(member))

    foreign = _sign(client, keys[other], prepared, body)
    assert (foreign.status_code, foreign.json()["code"]) == (403, "disputes.prepared_not_yours")
    _by_own_key(client, keys, other, dispute_id, _vote(other), RESOLUTION)
    size = accord.ledger.size()
    stale = _sign(client, keys[member], prepared, body)

    assert (stale.status_code, stale.json()["code"]) == (409, "disputes.prepared_stale")
    assert accord.ledger.size() == size
    assert [v["agent_id"] for v in _panel(client, keys, dispute_id)["votes"]] == [other]


def test_a_member_tallies_after_the_deadline_with_its_own_key_and_the_ledger_verifies(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord, frozen_clock: FrozenClock
) -> None:
    dispute_id, members, vote_deadline = _seated(client, keys, frozen_clock)
    for member in members[:2]:
        _by_own_key(client, keys, member, dispute_id, _vote(member), RESOLUTION)
    absent = members[2]
    size = accord.ledger.size()
    early = _refusal(client, keys, members[0], dispute_id, TALLY)
    assert (early.status_code, early.json()["code"]) == (422, "panels.tally_too_early")
    assert accord.ledger.size() == size

    frozen_clock.advance(vote_deadline - frozen_clock.now() + timedelta(seconds=1))
    prepared = _prepare(client, keys, members[0], dispute_id, TALLY)
    assert (prepared.role, prepared.kid) == ("arbitrator", _own_key(members[0]).kid)
    [payload] = prepared.payloads  # the tallying member signs the decided §6 record
    assert "§6 resolution" in payload.what
    body = _signatures(prepared, members[0], TALLY, RESOLUTION)
    foreign = _sign(client, keys[members[1]], prepared, body)
    assert (foreign.status_code, foreign.json()["code"]) == (403, "disputes.prepared_not_yours")
    done = _sign(client, keys[members[0]], prepared, body)
    assert done.status_code == 200, done.text
    tally = done.json()["result"]
    assert (tally["decision"], tally["votes_for"], tally["absent"]) == (
        "binding_resolution",
        2,
        [absent],
    )
    size = accord.ledger.size()
    replayed = _sign(client, keys[members[0]], prepared, body)
    twice = _refusal(client, keys, members[1], dispute_id, TALLY)
    assert (replayed.status_code, replayed.json()["code"]) == (409, "disputes.prepared_consumed")
    assert (twice.status_code, twice.json()["code"]) == (422, "panels.already_tallied")
    assert accord.ledger.size() == size

    _by_own_key(client, keys, members[1], dispute_id, SIGN, RESOLUTION)
    assert _status(client, keys, dispute_id)[0] == "resolved"
    resolution = _resolution(accord, dispute_id)
    assert {s.kid for s in resolution.signatures} == {_own_key(m).kid for m in members[:2]}
    assert resolution.panel is not None
    assert resolution.panel.votes_for == 2
    assert _verified(client, keys, dispute_id)["resolution_id"] == resolution.resolution_id
    assert accord.verify().entries == accord.ledger.size()


def test_sign_resolution_is_refused_out_of_place_forged_foreign_or_replayed_writing_nothing(
    client: TestClient[Litestar], keys: dict[str, str], accord: Accord, frozen_clock: FrozenClock
) -> None:
    dispute_id, members, _ = _seated(client, keys, frozen_clock)
    undecided = _refusal(client, keys, members[0], dispute_id, SIGN)
    assert (undecided.status_code, undecided.json()["code"]) == (422, "panels.nothing_to_sign")
    for member in members:  # the last vote decides and signs the record: pending, 1 of M=2
        _by_own_key(client, keys, member, dispute_id, _vote(member), RESOLUTION)
    last, signer, other = members[-1], members[0], members[1]
    size = accord.ledger.size()

    already = _refusal(client, keys, last, dispute_id, SIGN)
    outsider = _refusal(client, keys, OUTSIDER, dispute_id, SIGN)
    prepared = _prepare(client, keys, signer, dispute_id, SIGN)
    body = _signatures(prepared, signer, SIGN, RESOLUTION)
    foreign = _sign(client, keys[other], prepared, body)
    forged = _sign(client, keys[signer], prepared, _forged(prepared, signer, other, SIGN))

    assert (already.json()["code"], already.json()["requirement"]) == (
        "panels.already_signed",
        "R19",
    )
    assert (outsider.status_code, outsider.json()["code"]) == (403, "panels.not_a_member")
    assert (foreign.status_code, foreign.json()["code"]) == (403, "disputes.prepared_not_yours")
    assert (forged.status_code, forged.json()["field"]) == (422, "signatures[0]")
    assert accord.ledger.size() == size
    assert _status(client, keys, dispute_id)[0] != "resolved"

    done = _sign(client, keys[signer], prepared, body)
    assert done.json()["status"] == "completed", done.text
    size = accord.ledger.size()
    replayed = _sign(client, keys[signer], prepared, body)
    assert (replayed.status_code, replayed.json()["code"]) == (409, "disputes.prepared_consumed")
    assert accord.ledger.size() == size
    assert _status(client, keys, dispute_id)[0] == "resolved"
    kids = {s.kid for s in _resolution(accord, dispute_id).signatures}
    assert kids == {_own_key(last).kid, _own_key(signer).kid}
    assert (
        _verified(client, keys, dispute_id)["resolution_id"]
        == done.json()["result"]["resolution_id"]
    )
    assert accord.verify().entries == accord.ledger.size()


@pytest.mark.parametrize("late", [False, True], ids=["non_member", "after_deadline"])
def test_a_vote_the_panel_would_refuse_is_refused_when_it_is_prepared(
    client: TestClient[Litestar],
    keys: dict[str, str],
    accord: Accord,
    frozen_clock: FrozenClock,
    late: bool,
) -> None:
    dispute_id, members, vote_deadline = _seated(client, keys, frozen_clock)
    voter = members[0] if late else OUTSIDER
    if late:
        frozen_clock.advance(vote_deadline - frozen_clock.now() + timedelta(seconds=1))
    size = accord.ledger.size()

    answer = post_dispute(client, keys[voter], f"/{dispute_id}/prepared-steps", _vote(voter))

    expected = (422, "panels.vote_after_deadline") if late else (403, "panels.not_a_member")
    assert (answer.status_code, answer.json().get("code")) == expected, answer.text
    assert accord.ledger.size() == size
