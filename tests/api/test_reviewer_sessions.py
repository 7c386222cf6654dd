"""Reviewer sessions (issue 31): only server-issued ids, a new id at sign-in and sign-out, the
CSRF token bound to the session, idle and absolute timeouts, revocation ends the session."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.cases import Case
from accord.clock import FrozenClock
from accord.config import ReviewerSessionSettings
from tests.api.conftest import Tokens

SESSION = "accord_session"


def _csrf(page: str) -> str:
    found = re.search(r'name="_csrf_token" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def _sign_in(client: TestClient[Litestar], token: str) -> str:
    """Sign in; the session id the server issued."""
    form = client.get("/signin").text
    answer = client.post(
        "/signin", data={"key": token, "_csrf_token": _csrf(form)}, follow_redirects=False
    )
    assert answer.status_code == 303, answer.text
    issued = answer.cookies.get(SESSION)
    assert issued
    return issued


def _queue_status(app: Litestar, session_id: str) -> str:
    """What another client carrying ``session_id`` gets at /queue: 200 or the redirect."""
    with TestClient(app) as other:
        other.cookies.set(SESSION, session_id)
        answer = other.get("/queue", follow_redirects=False)
        return "200" if answer.status_code == 200 else answer.headers["location"]


def test_a_planted_session_cookie_is_never_kept_through_sign_in(
    app: Litestar, client: TestClient[Litestar], tokens: Tokens
) -> None:
    fixed = "a" * 64
    client.cookies.set(SESSION, fixed)
    issued = _sign_in(client, tokens.reviewer)
    assert issued != fixed
    assert client.get("/queue", follow_redirects=False).status_code == 200
    assert _queue_status(app, fixed) == "/signin"  # the attacker's copy gets nothing
    assert _queue_status(app, issued) == "200"


def test_a_cookie_the_server_never_issued_is_dropped_even_before_sign_in(
    client: TestClient[Litestar],
) -> None:
    client.cookies.set(SESSION, "b" * 64)
    answer = client.get("/signin")
    assert answer.cookies.get(SESSION) not in (None, "b" * 64)


def test_sign_in_issues_a_new_id_and_the_old_one_is_gone(
    app: Litestar, client: TestClient[Litestar], tokens: Tokens
) -> None:
    before = client.get("/signin").cookies.get(SESSION)
    assert before
    issued = _sign_in(client, tokens.reviewer)
    assert issued != before
    assert _queue_status(app, before) == "/signin"


def test_sign_out_ends_the_session_for_every_copy_of_its_cookie(
    app: Litestar, client: TestClient[Litestar], tokens: Tokens
) -> None:
    issued = _sign_in(client, tokens.reviewer)
    page = client.get("/queue").text
    out = client.post("/signout", data={"_csrf_token": _csrf(page)}, follow_redirects=False)
    assert out.status_code == 303
    assert _queue_status(app, issued) == "/signin"
    assert client.get("/queue", follow_redirects=False).headers["location"] == "/signin"
    assert _sign_in(client, tokens.reviewer) != issued  # signing in again: another new id


def test_a_csrf_token_from_another_session_is_refused(
    app: Litestar, client: TestClient[Litestar], tokens: Tokens, escalated: Case, accord: Accord
) -> None:
    _sign_in(client, tokens.reviewer)
    with TestClient(app) as attacker:  # a valid CSRF cookie and token of its own
        theirs = attacker.get("/signin")
        their_cookie, their_token = theirs.cookies.get("accord_csrf"), _csrf(theirs.text)
    assert their_cookie
    client.cookies.set("accord_csrf", their_cookie)
    answer = client.post(
        f"/cases/{escalated.approval_item_id}/decision",
        data={"verdict": "2", "reasoning": "chargebacks", "_csrf_token": their_token},
        follow_redirects=False,
    )
    assert answer.status_code == 401, answer.text
    assert "sign in again" in answer.text
    assert escalated.approval_item_id is not None
    assert accord.approvals.get(escalated.approval_item_id).is_pending


def test_an_idle_session_ends_and_activity_keeps_it(
    client: TestClient[Litestar], tokens: Tokens, frozen_clock: FrozenClock
) -> None:
    _sign_in(client, tokens.reviewer)
    for _ in range(3):  # a request every 20 minutes keeps it alive
        frozen_clock.advance(timedelta(minutes=20))
        assert client.get("/queue", follow_redirects=False).status_code == 200
    frozen_clock.advance(timedelta(minutes=31))
    assert client.get("/queue", follow_redirects=False).headers["location"] == "/signin"


def test_a_session_ends_eight_hours_after_sign_in_however_busy(
    client: TestClient[Litestar], tokens: Tokens, frozen_clock: FrozenClock
) -> None:
    _sign_in(client, tokens.reviewer)
    for _ in range(24):  # 8 hours, a request every 20 minutes
        frozen_clock.advance(timedelta(minutes=20))
        assert client.get("/queue", follow_redirects=False).status_code == 200
    frozen_clock.advance(timedelta(minutes=1))
    assert client.get("/queue", follow_redirects=False).headers["location"] == "/signin"


def test_revoking_the_key_ends_every_session_of_it(
    app: Litestar, client: TestClient[Litestar], keys: ApiKeyStore
) -> None:
    key, token = keys.create("reviewer", principal_id="human:treasurer")
    first = _sign_in(client, token)
    with TestClient(app) as laptop:
        second = _sign_in(laptop, token)
    keys.revoke(key.key_id)
    assert _queue_status(app, first) == "/signin"
    assert _queue_status(app, second) == "/signin"


def test_the_timeouts_are_configured_in_minutes_within_bounds() -> None:
    assert ReviewerSessionSettings().idle_minutes == 30
    assert ReviewerSessionSettings().absolute_minutes == 480
    with pytest.raises(ValueError, match="idle_minutes"):
        ReviewerSessionSettings(idle_minutes=0)
