"""Deciding a human appeal on the reviewer's dispute page (no browser): the outcome is the
reviewer's own words, not a choice among positions (R16); it is signed by the session's
principal with their reviewer key, through the same call as the API's appeal route. A form
without its CSRF token, a reviewer who is not the parties' principal, an empty outcome and a
signed-out session are refused, writing nothing."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.crypto.keyring import role_key_name
from accord.dcp07.signing import verify_resolution
from accord.disputes import StoredDispute
from tests.api._dispute_clients import accord_fixture
from tests.api._disputes import AUDIT, BILLING
from tests.api.test_dispute_tiers_routes import PRINCIPAL, _config
from tests.api.test_reviewer_page import _csrf, _sign_in
from tests.disputes._rules import filing

OUTCOME = "Billing keeps tonight's slot;\r\naudit gets the GPU from 02:00 UTC."


accord = accord_fixture(_config, demo_reviewers=True, reviewers=(PRINCIPAL,))


def _reviewer(accord: Accord, principal_id: str) -> str:
    return ApiKeyStore(accord.ledger, accord.clock).create("reviewer", principal_id=principal_id)[1]


def _appealing(accord: Accord) -> StoredDispute:
    stored = accord.disputes.open(filing(complainant=BILLING, respondents=[AUDIT]))
    return accord.disputes.escalate(stored.dispute_id, by=BILLING, to_tier="human_appeal")


def test_r16_the_parties_principal_decides_the_appeal_on_the_page_in_their_own_words(
    client: TestClient[Litestar], accord: Accord
) -> None:
    stored = _appealing(accord)
    _sign_in(client, _reviewer(accord, PRINCIPAL))
    page = client.get(f"/disputes/{stored.dispute_id}").text
    assert "Decide the appeal" in page
    assert 'name="outcome"' in page
    form = {
        "outcome": OUTCOME,
        "reasoning": "it booked first; audit's close can run overnight",
        "_csrf_token": _csrf(page),
        "by": "human:treasurer",  # ignored: who decides is the session's reviewer
    }
    decided = client.post(f"/disputes/{stored.dispute_id}/appeal", data=form)
    assert decided.status_code == 200, decided.text
    assert 'data-outcome="decided"' in decided.text
    resolution = accord.disputes.show(stored.dispute_id).resolution
    assert resolution is not None
    assert resolution.outcome.description == OUTCOME.replace("\r\n", "\n")
    assert resolution.resolution_level.value == "human_appeal"
    assert [s.agent_id for s in resolution.signatures] == [PRINCIPAL]
    reviewer_key = accord.key_signer(role_key_name("reviewer", PRINCIPAL))
    verify_resolution(resolution, {PRINCIPAL: reviewer_key.public_key})
    after = client.get(f"/disputes/{stored.dispute_id}").text
    assert "Decide the appeal" not in after
    assert "audit gets the GPU from 02:00 UTC." in after
    twice = client.post(f"/disputes/{stored.dispute_id}/appeal", data=form)
    assert twice.status_code in (409, 422)
    assert 'data-outcome="refused"' in twice.text
    assert "Traceback" not in twice.text


def test_the_appeal_form_shows_only_while_a_dispute_waits_at_human_appeal(
    client: TestClient[Litestar], accord: Accord
) -> None:
    stored = accord.disputes.open(filing(complainant=BILLING, respondents=[AUDIT]))
    _sign_in(client, _reviewer(accord, PRINCIPAL))
    assert "Decide the appeal" not in client.get(f"/disputes/{stored.dispute_id}").text


def test_an_appeal_form_without_its_csrf_token_is_refused_and_writes_nothing(
    client: TestClient[Litestar], accord: Accord
) -> None:
    stored = _appealing(accord)
    _sign_in(client, _reviewer(accord, PRINCIPAL))
    before = accord.ledger.size()
    answer = client.post(
        f"/disputes/{stored.dispute_id}/appeal", data={"outcome": OUTCOME, "reasoning": "why"}
    )
    assert answer.status_code == 403
    assert accord.ledger.size() == before
    assert accord.disputes.show(stored.dispute_id).resolution is None


def test_a_reviewer_who_is_not_the_parties_principal_is_refused_naming_them(
    client: TestClient[Litestar], accord: Accord
) -> None:
    stored = _appealing(accord)
    _sign_in(client, _reviewer(accord, "human:treasurer"))
    page = client.get(f"/disputes/{stored.dispute_id}").text
    before = accord.ledger.size()
    answer = client.post(
        f"/disputes/{stored.dispute_id}/appeal",
        data={"outcome": OUTCOME, "reasoning": "why", "_csrf_token": _csrf(page)},
    )
    assert answer.status_code == 422
    assert 'data-outcome="refused"' in answer.text
    assert "responsible principals" in answer.text
    assert accord.ledger.size() == before
    assert accord.disputes.show(stored.dispute_id).resolution is None


def test_an_empty_outcome_is_refused_with_a_message_and_writes_nothing(
    client: TestClient[Litestar], accord: Accord
) -> None:
    stored = _appealing(accord)
    _sign_in(client, _reviewer(accord, PRINCIPAL))
    page = client.get(f"/disputes/{stored.dispute_id}").text
    before = accord.ledger.size()
    answer = client.post(
        f"/disputes/{stored.dispute_id}/appeal",
        data={"outcome": "  ", "reasoning": "why", "_csrf_token": _csrf(page)},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 422
    assert 'data-outcome="refused"' in answer.text
    assert "outcome" in answer.text
    assert "<html" not in answer.text  # htmx gets the fragment alone
    assert accord.ledger.size() == before


def test_a_signed_out_appeal_decision_is_refused_and_writes_nothing(
    client: TestClient[Litestar], accord: Accord
) -> None:
    stored = _appealing(accord)
    _sign_in(client, _reviewer(accord, PRINCIPAL))
    token = _csrf(client.get(f"/disputes/{stored.dispute_id}").text)
    client.post("/signout", data={"_csrf_token": token})
    before = accord.ledger.size()
    answer = client.post(
        f"/disputes/{stored.dispute_id}/appeal",
        data={"outcome": OUTCOME, "reasoning": "why", "_csrf_token": token},
    )
    assert answer.status_code == 401
    assert "sign in again" in answer.text
    assert accord.ledger.size() == before
    assert accord.disputes.show(stored.dispute_id).resolution is None
