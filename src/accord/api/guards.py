"""Who is calling, from the credential only: ``Authorization: Bearer <API key>``.

A route says which roles may call it with ``opt=allow(*roles)``; :func:`authenticate` (the
app's ``before_request`` hook runs it first, for every route) authenticates the key (401 when
missing, wrong, expired or revoked), refuses other roles (403) and leaves the key in the
request scope for ``caller``. Identity is never read from a body: an agent key acts only as
its own agent. (Not a Litestar guard: Litestar calls each guard with a copy of the route
handler, ~3 % of a queue listing's instructions, measured; issue 13.) ``create_app`` refuses
to build a service where a route could answer without this check
(:func:`refuse_unguarded_routes`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from litestar import Litestar, Request
from litestar.connection import ASGIConnection
from litestar.handlers.base import BaseRouteHandler
from litestar.handlers.http_handlers import HTTPRouteHandler
from litestar.routes import HTTPRoute

from accord.api.api_keys import ApiKey, ApiKeyStore, Role
from accord.api.auth_errors import Forbidden
from accord.store import short_read

_SCOPE_KEY = "accord.api_key"
#: The ``opt`` key of the roles a route lets in.
_ROLES = "accord.roles"
#: The OpenAPI security requirement of every guarded route (scheme ``apiKey``: HTTP bearer).
BEARER: dict[str, list[str]] = {"apiKey": []}
READERS = (Role.AGENT, Role.REVIEWER, Role.AUDITOR, Role.ADMIN)
OVERSEERS = (Role.REVIEWER, Role.AUDITOR, Role.ADMIN)


def bearer_token(authorization: str | None) -> str | None:
    scheme, _, token = (authorization or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def allow(*roles: Role) -> dict[str, Any]:
    """A route's ``opt``: only keys of ``roles`` may call it (see :func:`authenticate`)."""
    if not roles:
        raise ValueError("a route must let at least one role in")
    return {_ROLES: frozenset(roles)}


def allowed_roles(handler: BaseRouteHandler) -> frozenset[Role] | None:
    """The roles ``handler`` lets in, or None for a route open to anyone (a page, /health)."""
    return cast(frozenset[Role] | None, handler.opt.get(_ROLES))


async def authenticate(request: Request[Any, Any, Any]) -> None:
    """Authenticate the bearer key of a request to a route that names roles, refuse a key of
    another role, and keep the key in the scope; nothing for an open route."""
    allowed = allowed_roles(request.route_handler)
    if allowed is None:
        return
    keys = cast(ApiKeyStore, request.app.state["api_keys"])
    token = bearer_token(request.headers.get("authorization"))
    # one look-up by the token's hash (an index): in place on SQLite, not a thread hop
    key = await short_read(keys.db, lambda: keys.authenticate(token), indexed=True)
    if key.role not in allowed:
        raise Forbidden(
            f"a {key.role.value} key may not do this",
            field="authorization",
            rule=f"role is one of {', '.join(sorted(r.value for r in allowed))}",
        )
    cast(dict[str, Any], request.scope)[_SCOPE_KEY] = key


def refuse_unguarded_routes(app: Litestar, guarded: tuple[str, ...]) -> None:
    """Refuse (``RuntimeError``) an app where a route might answer without the key check:
    a route under one of the ``guarded`` path prefixes that names no roles; any route with
    its own ``before_request`` (it replaces the app's, which runs :func:`authenticate`); a
    cached route that names roles (a cached answer is sent before the hook runs); a route
    that is not plain HTTP (a websocket or ASGI route never runs the hook) under ``guarded``
    or naming roles. Litestar's own ``OPTIONS`` answers (the allowed methods) are open."""
    for route in app.routes:
        if not isinstance(route, HTTPRoute):
            handler = getattr(route, "route_handler", None)
            if route.path.startswith(guarded) or (
                handler is not None and allowed_roles(handler) is not None
            ):
                raise RuntimeError(f"route {route.path} is not plain HTTP: no key check runs")
            continue
        for handler in route.route_handlers:
            if handler.resolve_before_request() is not app.before_request:
                raise RuntimeError(f"route {route.path} replaces the app's before_request hook")
            if _litestars_options(handler):
                continue
            roles = allowed_roles(handler)
            if roles is None and route.path.startswith(guarded):
                raise RuntimeError(f"route {route.path} names no roles (opt=allow(...))")
            if roles is not None and handler.cache:
                raise RuntimeError(f"route {route.path} names roles but caches its answer")


def _litestars_options(handler: HTTPRouteHandler) -> bool:
    """Whether ``handler`` is the ``OPTIONS`` handler Litestar adds to every HTTP route."""
    fn = getattr(handler.fn, "func", handler.fn)
    return bool(
        getattr(fn, "__module__", None) == "litestar.routes.http"
        and getattr(fn, "__name__", None) == "options_handler"
    )


def caller(connection: ASGIConnection[Any, Any, Any, Any]) -> ApiKey:
    """The key :func:`authenticate` authenticated for this request."""
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
