"""The reviewer's dispute pages over HTTP (no browser): the list and its status filter and
paging, one dispute with its evidence, timeline and objections, and ordering a stay."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from typing import Any

from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.api.ui.dispute_pages import DISPUTES_PAGE
from accord.app import Accord
from accord.clock import FrozenClock
from accord.disputes import StoredDispute
from tests.api.conftest import Tokens
from tests.api.test_reviewer_page import _csrf, _sign_in
from tests.disputes._rules import filing, resolve

BILLING, AUDIT = "agent:billing", "agent:audit"
GROUNDS = {"summary": "the log was ignored", "detailed_reasoning": "log:1 shows billing first"}
REMEDY = {"type": "reconsideration", "description": "weigh the booking log"}


def _filed(accord: Accord, **changes: Any) -> StoredDispute:
    return accord.disputes.open(filing(complainant=BILLING, respondents=[AUDIT], **changes))


def _objected(accord: Accord, clock: FrozenClock) -> tuple[StoredDispute, str]:
    """A dispute resolved against audit, and billing's objection to the resolution."""
    stored = _filed(accord)
    _, resolution = resolve(
        accord.disputes, clock, dispute_id=stored.dispute_id, actions=[(AUDIT, "Release the GPU")]
    )
    objection = accord.disputes.object(
        stored.dispute_id, resolution.resolution_id, BILLING, "substantive", GROUNDS, REMEDY
    )
    return accord.disputes.show(stored.dispute_id), objection.objection_id


def test_the_dispute_pages_need_a_signed_in_reviewer(
    client: TestClient[Litestar], accord: Accord
) -> None:
    stored = _filed(accord)
    for path in ("/disputes", f"/disputes/{stored.dispute_id}"):
        answer = client.get(path, follow_redirects=False)
        assert answer.status_code in (302, 303, 307)
        assert answer.headers["location"] == "/signin"


def test_the_list_shows_a_filed_dispute_with_its_whole_id(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    stored = _filed(accord)
    _sign_in(client, tokens.reviewer)
    page = client.get("/disputes", params={"status": "all"}).text
    assert f'<a href="/disputes/{stored.dispute_id}">{stored.dispute_id}</a>' in page
    for shown in ("resource_conflict", "medium", BILLING, AUDIT, stored.record.opened_at):
        assert shown in page
    assert '<a href="/disputes">Disputes</a>' in page


def test_the_list_shows_appealing_disputes_first_and_filters_by_status(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord
) -> None:
    waiting = _filed(accord)
    accord.disputes.escalate(waiting.dispute_id, by=BILLING, to_tier="human_appeal")
    other = _filed(accord, subject="a second booking")
    _sign_in(client, tokens.reviewer)
    default = client.get("/disputes").text
    assert waiting.dispute_id in default
    assert other.dispute_id not in default
    opened = client.get("/disputes", params={"status": other.status}).text
    assert other.dispute_id in opened
    assert waiting.dispute_id not in opened
    unknown = client.get("/disputes", params={"status": "pending"})
    assert unknown.status_code == 422
    assert 'role="alert"' in unknown.text
    assert "Traceback" not in unknown.text


def test_the_list_pages_with_the_librarys_cursor(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    ids = []
    for n in range(DISPUTES_PAGE + 1):
        if n and n % 10 == 0:  # R34: an agent files at most 10 disputes a day
            frozen_clock.advance(timedelta(hours=25))
        ids.append(_filed(accord, subject=f"booking {n}").dispute_id)
    _sign_in(client, tokens.reviewer)
    first = client.get("/disputes", params={"status": "all"}).text
    assert ids[DISPUTES_PAGE - 1] in first
    assert ids[DISPUTES_PAGE] not in first
    found = re.search(r'<a href="([^"]+)" rel="next">', first)
    assert found is not None
    rest = client.get(html.unescape(found.group(1))).text
    assert ids[DISPUTES_PAGE] in rest
    assert ids[0] not in rest
    assert 'rel="next"' not in rest


def test_the_dispute_page_shows_subject_parties_evidence_hash_timeline_and_objection(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    stored, objection_id = _objected(accord, frozen_clock)
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/disputes/{stored.dispute_id}").text
    record = stored.record
    (evidence,) = record.evidence
    assert record.subject.description in page
    assert evidence.evidence_id in page
    assert evidence.content_hash in page
    for event in record.timeline:
        assert event.event in page
    assert "dispute_objection_filed" in page
    assert stored.resolution is not None
    assert stored.resolution.resolution_id in page
    assert objection_id in page
    assert 'data-objection-status="filed"' in page
    assert "Order a stay" in page


def test_an_unknown_dispute_is_a_404_page(client: TestClient[Litestar], tokens: Tokens) -> None:
    _sign_in(client, tokens.reviewer)
    answer = client.get("/disputes/disp:00000000-0000-4000-8000-000000000000")
    assert answer.status_code == 404
    assert 'role="alert"' in answer.text


def test_r28_a_stay_ordered_on_the_page_is_signed_by_the_session_reviewer(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    stored, objection_id = _objected(accord, frozen_clock)
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/disputes/{stored.dispute_id}").text
    form = {"reason": "the log needs a look", "_csrf_token": _csrf(page), "by": "human:deputy"}
    stayed = client.post(f"/objections/{objection_id}/stay", data=form)
    assert stayed.status_code == 200, stayed.text
    assert 'data-outcome="stayed"' in stayed.text
    stay = accord.disputes.objections.get(objection_id).stay
    assert stay is not None
    assert stay.ordered_by == "human:treasurer"  # the session's, not the form's "by"
    entry = accord.ledger.get(stay.ledger_seq)
    assert entry.event_type == "dispute_stay_ordered"
    assert entry.record["reason"] == "the log needs a look"
    after = client.get(f"/disputes/{stored.dispute_id}").text
    assert 'data-objection-status="stayed"' in after
    assert "Order a stay" not in after
    twice = client.post(f"/objections/{objection_id}/stay", data=form)
    assert twice.status_code == 409
    assert 'data-outcome="refused"' in twice.text
    assert "already has a stay" in twice.text
    assert "Traceback" not in twice.text


def test_a_stay_form_without_its_csrf_token_is_refused_and_writes_nothing(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    _, objection_id = _objected(accord, frozen_clock)
    _sign_in(client, tokens.reviewer)
    before = accord.ledger.size()
    answer = client.post(f"/objections/{objection_id}/stay", data={"reason": "no token"})
    assert answer.status_code == 403
    assert accord.ledger.size() == before
    assert accord.disputes.objections.get(objection_id).stay is None


def test_a_signed_out_stay_is_refused_and_writes_nothing(
    client: TestClient[Litestar], tokens: Tokens, accord: Accord, frozen_clock: FrozenClock
) -> None:
    stored, objection_id = _objected(accord, frozen_clock)
    _sign_in(client, tokens.reviewer)
    token = _csrf(client.get(f"/disputes/{stored.dispute_id}").text)
    client.post("/signout", data={"_csrf_token": token})
    before = accord.ledger.size()
    answer = client.post(f"/objections/{objection_id}/stay", data={"_csrf_token": token})
    assert answer.status_code == 401
    assert "sign in again" in answer.text
    assert accord.ledger.size() == before
    assert client.get("/disputes", follow_redirects=False).headers["location"] == "/signin"


def test_a_reviewer_without_a_reviewer_signing_key_is_refused_with_a_message(
    client: TestClient[Litestar], keys: ApiKeyStore, accord: Accord, frozen_clock: FrozenClock
) -> None:
    stored, objection_id = _objected(accord, frozen_clock)
    _sign_in(client, keys.create("reviewer", principal_id="human:unkeyed")[1])
    page = client.get(f"/disputes/{stored.dispute_id}").text
    before = accord.ledger.size()
    answer = client.post(f"/objections/{objection_id}/stay", data={"_csrf_token": _csrf(page)})
    assert answer.status_code == 403
    assert 'data-outcome="refused"' in answer.text
    assert "Traceback" not in answer.text
    assert accord.ledger.size() == before
    assert accord.disputes.objections.get(objection_id).stay is None


def test_r16_two_principals_decide_an_appeal_in_turn_from_the_dispute_page(
    client: TestClient[Litestar], keys: ApiKeyStore, accord: Accord
) -> None:
    def party(agent_id: str, principal_id: str) -> dict[str, str]:
        return {"agent_id": agent_id, "principal_id": principal_id, "organization_id": "acme"}

    stored = accord.disputes.open(
        filing(
            complainant=party("agent:ops", "human:treasurer"),
            respondents=[party("agent:batch", "human:deputy")],
        )
    )
    dispute_id = stored.dispute_id
    accord.disputes.escalate(dispute_id, by="agent:ops", to_tier="human_appeal")
    _sign_in(client, keys.create("reviewer", principal_id="human:treasurer")[1])
    page = client.get(f"/disputes/{dispute_id}").text
    assert "Decide the appeal" in page
    assert "Pending decision" not in page
    form = {"outcome": "ops first", "reasoning": "booked\r\nfirst", "_csrf_token": _csrf(page)}
    proposed = client.post(f"/disputes/{dispute_id}/appeal", data=form)
    assert proposed.status_code == 200, proposed.text
    assert 'data-outcome="proposed"' in proposed.text
    assert "human:deputy" in proposed.text
    pending = accord.disputes.tiers.appeal.pending_appeal(dispute_id)
    assert pending is not None
    assert pending.record.reasoning == "booked\nfirst"
    shown = client.get(f"/disputes/{dispute_id}").text
    assert "Pending decision" in shown
    assert "Sign this decision" not in shown  # the proposer has signed already
    _sign_in(client, keys.create("reviewer", principal_id="human:deputy")[1])
    shown = client.get(f"/disputes/{dispute_id}").text
    assert f'data-proposal="{pending.proposal_id}"' in shown
    assert "Sign this decision" in shown
    stale = {"proposal_id": "res:replaced", "_csrf_token": _csrf(shown)}
    refused = client.post(f"/disputes/{dispute_id}/appeal/sign", data=stale)
    assert refused.status_code == 422
    assert 'data-outcome="refused"' in refused.text
    sign = {"proposal_id": pending.proposal_id, "_csrf_token": _csrf(shown)}
    signed = client.post(f"/disputes/{dispute_id}/appeal/sign", data=sign)
    assert signed.status_code == 200, signed.text
    assert 'data-outcome="decided"' in signed.text
    resolution = accord.disputes.show(dispute_id).resolution
    assert resolution is not None
    assert sorted(s.agent_id for s in resolution.signatures) == ["human:deputy", "human:treasurer"]
