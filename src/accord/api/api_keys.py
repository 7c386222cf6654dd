"""API keys: high-entropy tokens stored as SHA-256 hashes, each bound to one role.

A token is ``acc_`` + 43 url-safe characters (256 random bits); only its SHA-256 is kept, so
a stolen database holds no usable key. A token is printed once, when created. Roles:

- ``agent`` — bound to one agent id; may settle only as that agent and read cases;
- ``reviewer`` — bound to one principal; decides approval items as that principal;
- ``auditor`` — reads everything, writes nothing;
- ``admin`` — everything (settles for any agents, e.g. an orchestrator).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator
from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import select, update

from accord.api.auth_errors import Unauthenticated
from accord.clock import Clock, isoformat
from accord.errors import NotFound, ValidationError
from accord.ids import new_id
from accord.ledger import Ledger, record_api_key_event
from accord.store import Database
from accord.store.tables import api_keys

TOKEN_PREFIX = "acc_"
MAX_TOKEN_LENGTH = 128


class Role(StrEnum):
    AGENT = "agent"
    REVIEWER = "reviewer"
    AUDITOR = "auditor"
    ADMIN = "admin"


_Bound = Annotated[str, Field(min_length=1, max_length=256)]


class ApiKey(BaseModel):
    """One key as stored (never the token itself)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key_id: Annotated[str, Field(description="The key's id (`key:...`), never its token.")]
    role: Annotated[Role, Field(description="What it may do: agent, reviewer, auditor, admin.")]
    agent_id: Annotated[
        _Bound | None, Field(description="The agent an agent key acts as (only then).")
    ] = None
    principal_id: Annotated[
        _Bound | None,
        Field(description="The principal a reviewer key decides as (only then; not `system:`)."),
    ] = None
    label: Annotated[str, Field(max_length=200, description="A note for listings.")] = ""
    created_at: Annotated[AwareDatetime, Field(description="When the key was issued.")]
    expires_at: Annotated[
        AwareDatetime | None, Field(description="When the key stops working, if ever.")
    ] = None
    revoked_at: Annotated[
        AwareDatetime | None, Field(description="When the key was revoked, if it was.")
    ] = None

    @model_validator(mode="after")
    def _bound_as_its_role_needs(self) -> ApiKey:
        if (self.role is Role.AGENT) != (self.agent_id is not None):
            raise ValueError("an agent key, and only an agent key, is bound to an agent id")
        if (self.role is Role.REVIEWER) != (self.principal_id is not None):
            raise ValueError("a reviewer key, and only a reviewer key, is bound to a principal")
        if self.principal_id is not None and self.principal_id.startswith("system:"):
            raise ValueError("principal ids starting with 'system:' are reserved")
        return self

    def usable_at(self, now: datetime) -> bool:
        return self.revoked_at is None and (self.expires_at is None or now < self.expires_at)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class ApiKeyStore:
    """Create, list, revoke and check API keys in one database."""

    def __init__(self, ledger: Ledger, clock: Clock) -> None:
        """Keys in ``ledger``'s database; each issue and revocation is signed into it."""
        self._ledger = ledger
        self._db = db = ledger.db
        self._clock = clock
        #: Keys that authenticated, by token hash. A hit still reads the key's ``revoked_at``
        #: (one indexed column, through the driver), so a revocation by any process takes
        #: effect on the next request; it skips building the query and the model (~3/4 of
        #: the check's cost, measured). Only keys found valid are kept: never a refusal.
        self._known: dict[str, ApiKey] = {}
        mark = "?" if db.is_sqlite else "%s"
        self._revoked_sql = f"SELECT revoked_at FROM api_keys WHERE token_hash = {mark}"

    def create(
        self,
        role: Role | str,
        *,
        agent_id: str | None = None,
        principal_id: str | None = None,
        label: str = "",
        expires_at: datetime | None = None,
        by: str | None = None,
    ) -> tuple[ApiKey, str]:
        """A new key and its token (shown to the caller once, never stored); ``by``: the
        acting key's id when a key issued it over HTTP (named in the signed record)."""
        now = self._clock.now()
        valid = [r.value for r in Role]
        if role not in valid:
            raise ValidationError(
                f"unknown role {role!r}; valid: {', '.join(valid)}",
                code="auth.bad_role",
                field="role",
                rule=f"one of {', '.join(valid)}",
            )
        try:
            key = ApiKey(
                key_id=new_id("key", now),
                role=Role(role),
                agent_id=agent_id,
                principal_id=principal_id,
                label=label,
                created_at=now,
                expires_at=expires_at,
            )
        except PydanticValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "role"
            rule = str(first["msg"]).removeprefix("Value error, ")
            raise ValidationError(
                f"invalid API key: {rule}", code="auth.bad_key_binding", field=field, rule=rule
            ) from exc
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = _row(key, token_hash(token))
        with self._db.write() as conn:
            conn.execute(api_keys.insert().values(row))
            record_api_key_event(self._ledger, conn, row, by=by)
        return key, token

    def list(self) -> list[ApiKey]:
        with self._db.read() as conn:
            rows = conn.execute(select(api_keys).order_by(api_keys.c.created_at)).mappings()
            return [_key(row) for row in rows]

    def usable(self, key_id: str) -> ApiKey:
        """The key with this id if it may still be used (a signed-in page re-checks it on every
        request, so revoking a key also ends its sessions); ``Unauthenticated`` otherwise."""
        with self._db.read() as conn:
            row = conn.execute(select(api_keys).where(api_keys.c.key_id == key_id)).mappings()
            found = row.first()
        if found is None or not _key(found).usable_at(self._clock.now()):
            raise Unauthenticated("sign in again", field="session", rule="key unusable")
        return _key(found)

    def revoke(self, key_id: str, *, by: str | None = None) -> ApiKey:
        """Revoke a key now (revoking twice keeps the first time), signed into the ledger."""
        now = isoformat(self._clock.now())
        with self._db.write() as conn:
            changed = conn.execute(
                update(api_keys)
                .where(api_keys.c.key_id == key_id)
                .where(api_keys.c.revoked_at.is_(None))
                .values(revoked_at=now)
            ).rowcount
            row = conn.execute(select(api_keys).where(api_keys.c.key_id == key_id)).mappings()
            found = row.first()
            if found is not None and changed:
                record_api_key_event(self._ledger, conn, dict(found), by=by)
        if found is None:
            raise NotFound(f"no API key {key_id!r}", code="auth.key_not_found", key_id=key_id)
        return _key(found)

    @property
    def db(self) -> Database:
        """The database the keys are stored in."""
        return self._db

    def authenticate(self, token: str | None) -> ApiKey:
        """The key a token belongs to; ``Unauthenticated`` if missing, wrong, expired or revoked."""
        if not token:
            raise Unauthenticated("an API key is required", field="authorization", rule="missing")
        if len(token) > MAX_TOKEN_LENGTH or not token.startswith(TOKEN_PREFIX):
            raise Unauthenticated("invalid API key", field="authorization", rule="wrong key")
        digest = token_hash(token)
        known = self._known.get(digest)
        if known is not None:
            return self._still_usable(digest, known)
        with self._db.read() as conn:
            row = (
                conn.execute(select(api_keys).where(api_keys.c.token_hash == digest))
                .mappings()
                .first()
            )
        # the lookup is by hash (an index); the comparison itself is constant-time
        if row is None or not hmac.compare_digest(str(row["token_hash"]), digest):
            raise Unauthenticated("invalid API key", field="authorization", rule="wrong key")
        key = _key(row)
        if key.revoked_at is not None:
            raise Unauthenticated("this API key was revoked", field="authorization", rule="revoked")
        if not key.usable_at(self._clock.now()):
            raise Unauthenticated("this API key has expired", field="authorization", rule="expired")
        self._known[digest] = key
        return key

    def _still_usable(self, digest: str, key: ApiKey) -> ApiKey:
        """A known key, refused as :meth:`authenticate` refuses it once revoked or expired."""
        row = self._db.read_row(self._revoked_sql, (digest,))
        if row is None:  # no longer stored: as for a wrong key
            self._known.pop(digest, None)
            raise Unauthenticated("invalid API key", field="authorization", rule="wrong key")
        if row[0] is not None:
            self._known.pop(digest, None)
            raise Unauthenticated("this API key was revoked", field="authorization", rule="revoked")
        if not key.usable_at(self._clock.now()):
            raise Unauthenticated("this API key has expired", field="authorization", rule="expired")
        return key


def _row(key: ApiKey, digest: str) -> dict[str, Any]:
    return {
        "key_id": key.key_id,
        "token_hash": digest,
        "role": key.role.value,
        "agent_id": key.agent_id,
        "principal_id": key.principal_id,
        "label": key.label,
        "created_at": isoformat(key.created_at),
        "expires_at": isoformat(key.expires_at) if key.expires_at else None,
        "revoked_at": None,
    }


def _key(row: Any) -> ApiKey:
    def moment(value: str | None) -> datetime | None:
        return None if value is None else datetime.fromisoformat(value.replace("Z", "+00:00"))

    return ApiKey(
        key_id=row["key_id"],
        role=Role(row["role"]),
        agent_id=row["agent_id"],
        principal_id=row["principal_id"],
        label=row["label"],
        created_at=moment(row["created_at"]),
        expires_at=moment(row["expires_at"]),
        revoked_at=moment(row["revoked_at"]),
    )
