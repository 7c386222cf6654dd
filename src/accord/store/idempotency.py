"""Idempotency keys: a retried call with the same key and the same request gets the stored
result and writes nothing; the same key with a different request is refused.

A key lives in a *scope* (``settle``, ``gather``, ``park``): the same string used by a settle
and by a park names two different requests. The request is compared by a SHA-256 digest of
its canonical JSON; the result is the id of what the first call wrote (a case, a task).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, select

from accord.errors import AccordError, ValidationError
from accord.store.database import Database
from accord.store.driver_query import DriverQuery
from accord.store.tables import idempotency_keys

MAX_KEY_LENGTH = 256


class IdempotencyConflict(ValidationError):
    """The key was used before with a different request (HTTP 409); nothing was written."""

    code = "idempotency.conflict"


class KeyTaken(AccordError):
    """Raised inside a write transaction when another call recorded the key first: the
    transaction rolls back and the caller returns the stored result instead."""

    code = "idempotency.taken"


# On the driver: every keyed settle runs both, and Core's per-statement work was most of what
# a key cost (≈ 1 ms of a 7 ms settle on SQLite).
_STORED = DriverQuery(
    select(idempotency_keys.c.request_digest, idempotency_keys.c.result_id)
    .where(idempotency_keys.c.scope == bindparam("scope"))
    .where(idempotency_keys.c.idempotency_key == bindparam("key"))
)
_RECORD = DriverQuery(
    idempotency_keys.insert().values(
        scope=bindparam("scope"),
        idempotency_key=bindparam("key"),
        request_digest=bindparam("digest"),
        result_id=bindparam("result_id"),
        created_at=bindparam("created_at"),
    )
)


def request_digest(payload: Any) -> str:
    """SHA-256 (hex) of ``payload`` as sorted, compact JSON (non-JSON values as ``str``)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def check_key(key: str) -> str:
    """A key is 1–256 printable characters; anything else is ``idempotency.invalid_key``."""
    if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
        raise ValidationError(
            f"an idempotency key is 1 to {MAX_KEY_LENGTH} printable characters",
            code="idempotency.invalid_key",
            field="idempotency_key",
            rule=f"1..{MAX_KEY_LENGTH} printable characters",
        )
    return key


@dataclass(frozen=True)
class IdempotentRequest:
    """One keyed request: its scope, key and digest, and the clock's ``now`` for the row."""

    scope: str
    key: str
    digest: str
    now: Callable[[], str]

    def stored_within(self, conn: Connection) -> str | None:
        """The stored result's id (None: the key is new); ``idempotency.conflict`` when the
        key was used with a different request."""
        return self._result(_STORED.first(conn, {"scope": self.scope, "key": self.key}))

    def stored_alone(self, db: Database) -> str | None:
        """:meth:`stored_within`, looked up alone, outside any transaction."""
        rows = _STORED.rows_alone(db, {"scope": self.scope, "key": self.key})
        return self._result(rows[0] if rows else None)

    def _result(self, row: Mapping[str, Any] | None) -> str | None:
        if row is None:
            return None
        if row["request_digest"] != self.digest:
            raise IdempotencyConflict(
                f"idempotency key {self.key!r} was used for a different {self.scope} request; "
                "nothing was written",
                field="idempotency_key",
                scope=self.scope,
                idempotency_key=self.key,
                result_id=row["result_id"],
            )
        return str(row["result_id"])

    def record_within(self, conn: Connection, result_id: str) -> None:
        """Record the key for ``result_id`` in the caller's write transaction; ``KeyTaken``
        (or the conflict) when another call recorded it first."""
        if self.stored_within(conn) is not None:
            raise KeyTaken(
                f"idempotency key {self.key!r} was recorded by another call",
                scope=self.scope,
                idempotency_key=self.key,
            )
        _RECORD.execute(
            conn,
            {
                "scope": self.scope,
                "key": self.key,
                "digest": self.digest,
                "result_id": result_id,
                "created_at": self.now(),
            },
        )
