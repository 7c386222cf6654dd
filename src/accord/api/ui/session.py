"""Reviewer sign-in: a reviewer API key exchanged for a server-side session.

The session holds only the key id; each page re-checks that key (revoked or expired keys end
their sessions at once). The cookie is HttpOnly and SameSite=Strict (Secure behind TLS).
"""

from __future__ import annotations

from typing import Any, cast

from litestar import Request

from accord.api.api_keys import ApiKey, ApiKeyStore, Role
from accord.api.auth_errors import Forbidden, Unauthenticated

_KEY = "key_id"


def _store(request: Request[Any, Any, Any]) -> ApiKeyStore:
    return cast(ApiKeyStore, request.app.state["api_keys"])


def sign_in(request: Request[Any, Any, Any], token: str) -> ApiKey:
    """Start a session for a reviewer key; ``Unauthenticated``/``Forbidden`` otherwise."""
    key = _store(request).authenticate(token.strip() or None)
    if key.role is not Role.REVIEWER:
        raise Forbidden(
            f"a {key.role.value} key cannot sign in to the reviewer page",
            field="key",
            rule="a reviewer key",
        )
    request.clear_session()
    request.set_session({_KEY: key.key_id})
    return key


def signed_in(request: Request[Any, Any, Any]) -> ApiKey | None:
    """The reviewer of this session, if it is still allowed in."""
    key_id = request.session.get(_KEY) if request.session else None
    if not isinstance(key_id, str):
        return None
    try:
        return _store(request).usable(key_id)
    except Unauthenticated:
        request.clear_session()
        return None


def sign_out(request: Request[Any, Any, Any]) -> None:
    request.clear_session()
