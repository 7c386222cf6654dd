"""The reviewer page over HTTP (no browser): sign-in, sessions, CSRF, queue, case, decide."""

from __future__ import annotations

import re

from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.cases import Case
from accord.ledger import InclusionProof
from tests.api.conftest import Tokens


def _csrf(page: str) -> str:
    found = re.search(r'name="_csrf_token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def _sign_in(client: TestClient[Litestar], token: str) -> None:
    form = client.get("/signin").text
    answer = client.post("/signin", data={"key": token, "_csrf_token": _csrf(form)})
    assert answer.status_code == 200, answer.text  # followed the 303 to the queue


def test_the_queue_needs_a_signed_in_reviewer(client: TestClient[Litestar]) -> None:
    answer = client.get("/queue", follow_redirects=False)
    assert answer.status_code in (302, 303, 307)
    assert answer.headers["location"] == "/signin"


def test_a_reviewer_signs_in_and_sees_the_queue_with_whole_ids(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    _sign_in(client, tokens.reviewer)
    page = client.get("/queue").text
    assert str(escalated.approval_item_id) in page
    assert escalated.case_id in page
    assert "human:treasurer" in page
    assert "data-deadline=" in page


def test_the_session_cookie_is_httponly_and_samesite_strict(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    form = client.get("/signin").text
    answer = client.post(
        "/signin",
        data={"key": tokens.reviewer, "_csrf_token": _csrf(form)},
        follow_redirects=False,
    )
    cookie = next(
        v for k, v in answer.headers.multi_items() if k == "set-cookie" and "accord_session" in v
    )
    assert "HttpOnly" in cookie
    assert "samesite=strict" in cookie.lower()
    assert "Secure" not in cookie


def test_behind_tls_the_cookies_are_secure(accord: Accord, tokens: Tokens) -> None:
    from accord.api import create_app

    with TestClient(create_app(accord, sweep_every=None, secure_cookies=True)) as client:
        form = client.get("/signin")
        cookies = [v for k, v in form.headers.multi_items() if k == "set-cookie"]
        assert all("Secure" in c for c in cookies)


def test_a_wrong_key_or_a_non_reviewer_key_cannot_sign_in(
    client: TestClient[Litestar], tokens: Tokens
) -> None:
    form = client.get("/signin").text
    wrong = client.post("/signin", data={"key": "acc_nope", "_csrf_token": _csrf(form)})
    assert wrong.status_code == 401
    assert "invalid API key" in wrong.text
    auditor = client.post("/signin", data={"key": tokens.auditor, "_csrf_token": _csrf(form)})
    assert auditor.status_code == 403


def test_a_form_without_its_csrf_token_is_403(client: TestClient[Litestar], tokens: Tokens) -> None:
    client.get("/signin")
    answer = client.post("/signin", data={"key": tokens.reviewer})
    assert answer.status_code == 403
    assert client.get("/queue", follow_redirects=False).status_code != 200


def test_the_case_page_shows_both_positions_field_by_field(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{escalated.approval_item_id}").text
    for shown in ("agent:billing", "agent:audit", "chargebacks", "loyal", "0.70", "0.65"):
        assert shown in page
    assert 'class="disagree"' in page
    assert 'data-key="1"' in page
    assert 'data-key="2"' in page


def test_a_reviewer_decides_on_the_page_and_a_second_decision_is_refused(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{escalated.approval_item_id}").text
    path = f"/cases/{escalated.approval_item_id}/decision"
    form = {"verdict": "2", "reasoning": "chargebacks", "_csrf_token": _csrf(page)}
    decided = client.post(path, data=form)
    assert decided.status_code == 200
    assert 'data-outcome="decided"' in decided.text
    assert accord.cases.get(escalated.case_id).status.value == "settled"
    again = client.post(path, data={**form, "verdict": "1"})
    assert again.status_code == 409
    assert "already approved by human:treasurer" in again.text


def test_deciding_without_reasoning_is_refused_on_the_page(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    _sign_in(client, tokens.reviewer)
    page = client.get(f"/cases/{escalated.approval_item_id}").text
    answer = client.post(
        f"/cases/{escalated.approval_item_id}/decision",
        data={"verdict": "2", "reasoning": "  ", "_csrf_token": _csrf(page)},
    )
    assert answer.status_code == 422
    assert escalated.approval_item_id is not None
    assert accord.approvals.get(escalated.approval_item_id).is_pending


def test_revoking_the_key_ends_the_session(client: TestClient[Litestar], keys: ApiKeyStore) -> None:
    key, token = keys.create("reviewer", principal_id="human:treasurer")
    _sign_in(client, token)
    assert client.get("/queue", follow_redirects=False).status_code == 200
    keys.revoke(key.key_id)
    assert client.get("/queue", follow_redirects=False).headers["location"] == "/signin"


def test_an_unknown_item_page_is_404(client: TestClient[Litestar], tokens: Tokens) -> None:
    _sign_in(client, tokens.reviewer)
    assert client.get("/cases/apr:nope").status_code == 404


def test_the_queue_filters_by_kind_severity_and_agent(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case
) -> None:
    _sign_in(client, tokens.reviewer)
    item = str(escalated.approval_item_id)
    assert item in client.get("/queue", params={"kind": "logical_conflict"}).text
    assert item not in client.get("/queue", params={"kind": "priority_conflict"}).text
    assert item not in client.get("/queue", params={"severity": "low"}).text
    assert item in client.get("/queue", params={"agent": "agent:audit"}).text


def test_htmx_is_vendored_with_its_licence(client: TestClient[Litestar]) -> None:
    script = client.get("/static/htmx.min.js")
    assert script.status_code == 200
    assert script.text.startswith("/*! htmx 2.")
    assert "0BSD" in client.get("/static/htmx.LICENSE.txt").text or "BSD" in script.text[:200]


def test_the_history_page_lists_who_decided_what_linked_to_the_signed_entry(
    client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    assert client.get("/history", follow_redirects=False).headers["location"] == "/signin"
    _sign_in(client, tokens.reviewer)
    assert "Nothing has been decided yet" in client.get("/history").text
    page = client.get(f"/cases/{escalated.approval_item_id}").text
    client.post(
        f"/cases/{escalated.approval_item_id}/decision",
        data={"verdict": "2", "reasoning": "chargebacks", "_csrf_token": _csrf(page)},
    )
    history = client.get("/history").text
    assert str(escalated.approval_item_id) in history
    assert "human:treasurer" in history
    [seq] = [
        entry.seq
        for entry in accord.ledger.entries()
        if entry.event_type == "approval_decided"
    ]
    assert f'href="/history/entries/{seq}"' in history
    proof_page = client.get(f"/history/entries/{seq}").text
    assert 'data-proof="verified"' in proof_page
    assert str(escalated.approval_item_id) in proof_page
    download = client.get(f"/history/entries/{seq}/proof.json")
    assert download.headers["content-disposition"].startswith("attachment")
    root = accord.trust_root()
    proof = InclusionProof.model_validate(download.json())
    assert proof.verify({root.kid: root.public_key}).tree_size >= seq


def test_an_unknown_ledger_entry_page_is_404(client: TestClient[Litestar], tokens: Tokens) -> None:
    assert client.get("/history/entries/1", follow_redirects=False).headers["location"] == (
        "/signin"
    )
    _sign_in(client, tokens.reviewer)
    assert client.get("/history/entries/999999").status_code == 404
