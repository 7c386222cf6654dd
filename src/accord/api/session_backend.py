"""Server-side sessions whose ids only the server issues.

Litestar's server-side backend stores a session under whatever id the cookie names, so a
cookie the server never issued (``"a" * 64``, planted by someone else) would be kept through
sign-in: session fixation. Here a cookie is honoured only when the store holds a session under
it; any other cookie is dropped and a fresh random id issued. :func:`renew_session_id` makes the
response issue a new id and delete the old one's data (sign-in; sign-out clears the session).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from litestar.connection import ASGIConnection
from litestar.middleware.session.server_side import (
    ServerSideSessionBackend,
    ServerSideSessionConfig,
)
from litestar.types import Message, ScopeSession

_KNOWN = "accord.session.known"
"""Scope key: the cookie's id, when the store held a session under it."""
_FRESH = "accord.session.fresh"
"""Scope key: the id this response issues instead of the cookie's."""
_RENEW = "accord.session.renew"
"""Scope key: issue a new id even for a known session (sign-in)."""


def _scope(connection: ASGIConnection[Any, Any, Any, Any]) -> dict[str, Any]:
    return cast(dict[str, Any], connection.scope)


def renew_session_id(connection: ASGIConnection[Any, Any, Any, Any]) -> None:
    """Make this response store the session under a new server-issued id (the old id's data
    is deleted): call it when the session's privilege changes, i.e. at sign-in."""
    _scope(connection)[_RENEW] = True


class IssuedOnlySessionBackend(ServerSideSessionBackend):
    """:class:`ServerSideSessionBackend` honouring only ids the server issued."""

    async def load_from_connection(
        self, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> dict[str, Any]:
        session_id = connection.cookies.get(self.config.key)
        if session_id:
            store = self.config.get_store_from_app(connection.scope["app"])
            data = await self.get(session_id, store=store)
            if data is not None:
                _scope(connection)[_KNOWN] = session_id
                return self.deserialize_data(data)
        return {}

    def get_session_id(self, connection: ASGIConnection[Any, Any, Any, Any]) -> str:
        scope = _scope(connection)
        known = scope.get(_KNOWN)
        if isinstance(known, str) and not scope.get(_RENEW):
            return known
        fresh = scope.get(_FRESH)
        if not isinstance(fresh, str):
            fresh = self.generate_session_id()
            scope[_FRESH] = fresh
        return fresh

    async def store_in_message(
        self,
        scope_session: ScopeSession,
        message: Message,
        connection: ASGIConnection[Any, Any, Any, Any],
    ) -> None:
        scope = _scope(connection)
        known = scope.get(_KNOWN)
        if isinstance(known, str) and scope.get(_RENEW):
            store = self.config.get_store_from_app(connection.scope["app"])
            await self.delete(known, store=store)
        await super().store_in_message(scope_session, message, connection)


@dataclass
class IssuedOnlySessionConfig(ServerSideSessionConfig):
    """:class:`ServerSideSessionConfig` with :class:`IssuedOnlySessionBackend`."""

    _backend_class = IssuedOnlySessionBackend
