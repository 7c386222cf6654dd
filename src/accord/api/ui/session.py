"""Reviewer sign-in: a reviewer API key exchanged for a server-side session.

The session holds the key id, when it started and was last used, and the CSRF cookie it was
started with; each page re-checks that key (revoked or expired keys end their sessions at
once). Only ids the server issued are honoured (``api.session_backend``), and sign-in issues a
new one, so a planted cookie is never signed in. A session ends after
``reviewer_sessions.idle_minutes`` without a request and ``absolute_minutes`` after sign-in. A
form posted in a session must carry the CSRF cookie that session started with (Litestar checks
the form's token against that cookie): a token from another session is refused. The cookie is
HttpOnly and SameSite=Strict (Secure behind TLS).
"""

from __future__ import annotations

import hmac
from typing import Any, cast

from litestar import Request

from accord.api.api_keys import ApiKey, ApiKeyStore, Role
from accord.api.auth_errors import Forbidden, Unauthenticated
from accord.api.session_backend import renew_session_id
from accord.app import Accord

_KEY = "key_id"
_STARTED = "started"
_SEEN = "seen"
_CSRF = "csrf"
CSRF_COOKIE = "accord_csrf"
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _store(request: Request[Any, Any, Any]) -> ApiKeyStore:
    return cast(ApiKeyStore, request.app.state["api_keys"])


def _accord(request: Request[Any, Any, Any]) -> Accord:
    return cast(Accord, request.app.state["accord"])


def _now(request: Request[Any, Any, Any]) -> float:
    return _accord(request).clock.now().timestamp()


def sign_in(request: Request[Any, Any, Any], token: str) -> ApiKey:
    """Start a session for a reviewer key under a new session id; ``Unauthenticated`` or
    ``Forbidden`` otherwise."""
    key = _store(request).authenticate(token.strip() or None)
    if key.role is not Role.REVIEWER:
        raise Forbidden(
            f"a {key.role.value} key cannot sign in to the reviewer page",
            field="key",
            rule="a reviewer key",
        )
    now = _now(request)
    renew_session_id(request)
    request.set_session(
        {
            _KEY: key.key_id,
            _STARTED: now,
            _SEEN: now,
            _CSRF: request.cookies.get(CSRF_COOKIE, ""),
        }
    )
    return key


def signed_in(request: Request[Any, Any, Any]) -> ApiKey | None:
    """The reviewer of this session, if it is still allowed in (the key usable, the session
    neither idle nor too old, a form's CSRF cookie the session's own)."""
    session = request.session if request.session else {}
    key_id = session.get(_KEY)
    if not isinstance(key_id, str):
        return None
    if not _alive(request, session) or not _same_csrf(request, session):
        request.clear_session()
        return None
    try:
        key = _store(request).usable(key_id)
    except Unauthenticated:
        request.clear_session()
        return None
    request.set_session({**session, _SEEN: _now(request)})
    return key


def _alive(request: Request[Any, Any, Any], session: dict[str, Any]) -> bool:
    limits = _accord(request).config.settings.reviewer_sessions
    started, seen = session.get(_STARTED), session.get(_SEEN)
    if not isinstance(started, int | float) or not isinstance(seen, int | float):
        return False
    now = _now(request)
    return now - seen <= limits.idle_minutes * 60 and now - started <= limits.absolute_minutes * 60


def _same_csrf(request: Request[Any, Any, Any], session: dict[str, Any]) -> bool:
    if request.method in _SAFE_METHODS:
        return True
    bound = session.get(_CSRF)
    sent = request.cookies.get(CSRF_COOKIE, "")
    return isinstance(bound, str) and bool(bound) and hmac.compare_digest(bound, sent)


def sign_out(request: Request[Any, Any, Any]) -> None:
    """End the session: its data is deleted and the cookie cleared (the next one is new)."""
    request.clear_session()
