"""Who is calling, from the credential only: ``Authorization: Bearer <API key>``.

``allow(*roles)`` is a Litestar guard: it authenticates the key (401 when missing, wrong,
expired or revoked), refuses other roles (403) and leaves the key in the request scope for
``caller``. Identity is never read from a body: an agent key acts only as its own agent.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler
from litestar.types import Guard

from accord.api.api_keys import ApiKey, ApiKeyStore, Role
from accord.api.auth_errors import Forbidden
from accord.store.short_work import short_read

_SCOPE_KEY = "accord.api_key"
#: The OpenAPI security requirement of every guarded route (scheme ``apiKey``: HTTP bearer).
BEARER: dict[str, list[str]] = {"apiKey": []}
READERS = (Role.AGENT, Role.REVIEWER, Role.AUDITOR, Role.ADMIN)
OVERSEERS = (Role.REVIEWER, Role.AUDITOR, Role.ADMIN)


def bearer_token(authorization: str | None) -> str | None:
    scheme, _, token = (authorization or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def allow(*roles: Role) -> Guard:
    allowed = frozenset(roles)

    async def guard(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
        keys = cast(ApiKeyStore, connection.app.state["api_keys"])
        token = bearer_token(connection.headers.get("authorization"))
        # one look-up by the token's hash (an index): in place on SQLite, not a thread hop
        key = await short_read(keys.db, lambda: keys.authenticate(token), indexed=True)
        if key.role not in allowed:
            raise Forbidden(
                f"a {key.role.value} key may not do this",
                field="authorization",
                rule=f"role is one of {', '.join(sorted(r.value for r in allowed))}",
            )
        cast(dict[str, Any], connection.scope)[_SCOPE_KEY] = key

    return guard


def caller(connection: ASGIConnection[Any, Any, Any, Any]) -> ApiKey:
    """The key ``allow`` authenticated for this request."""
    return cast(ApiKey, cast(dict[str, Any], connection.scope)[_SCOPE_KEY])


def require_own_positions(key: ApiKey, agents: Iterable[str]) -> None:
    """An agent key settles only positions of its own agent (admins settle for anyone)."""
    if key.role is Role.ADMIN:
        return
    for index, agent in enumerate(agents):
        if agent != key.agent_id:
            raise Forbidden(
                f"this key acts as {key.agent_id}, not as {agent}",
                field=f"positions[{index}].agent",
                rule="an agent key submits only its own agent's positions",
            )
