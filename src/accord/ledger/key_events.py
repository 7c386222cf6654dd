"""Key-lifecycle ledger records: a key is registered for a role, or revoked.

Both are appended (and so signed) by a trusted service key. Rotating the service key is
registering a new ``service`` key with the current one, then (optionally) revoking the old.
Reviewer and arbitrator keys never sign entries: they sign their own decisions and votes.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.crypto import ED25519, derive_kid
from accord.crypto.encoding import b64decode

KEY_REGISTERED = "key_registered"
KEY_REVOKED = "key_revoked"
KEY_EVENTS = (KEY_REGISTERED, KEY_REVOKED)

KeyRole = Literal["service", "reviewer", "arbitrator", "agent"]
KEY_ROLES: tuple[KeyRole, ...] = ("service", "reviewer", "arbitrator", "agent")
Kid = Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")]


class KeyRegistered(BaseModel):
    """``key_registered``: ``kid`` may act as ``role`` (for ``principal``) from the next entry."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    kid: Kid
    alg: Literal["ed25519"] = ED25519
    public_key_b64: str
    role: KeyRole
    principal: Annotated[str, Field(min_length=1, max_length=256)] | None
    registered_by: Kid

    @model_validator(mode="after")
    def _consistent(self) -> KeyRegistered:
        try:
            public_key = b64decode(self.public_key_b64)
        except ValueError:
            raise ValueError("public_key_b64 is standard padded base64") from None
        if len(public_key) != 32 or derive_kid(ED25519, public_key) != self.kid:
            raise ValueError("kid must be derived from the 32-byte Ed25519 public_key_b64")
        if (self.role == "service") != (self.principal is None):
            raise ValueError("service keys have no principal; reviewer and arbitrator keys do")
        if self.principal is not None and self.principal.startswith("system:"):
            raise ValueError("principals starting with 'system:' are reserved")
        return self

    @property
    def public_key(self) -> bytes:
        return b64decode(self.public_key_b64)

    def event(self) -> tuple[str, dict[str, Any]]:
        return KEY_REGISTERED, self.model_dump()


class KeyRevoked(BaseModel):
    """``key_revoked``: ``kid`` may not sign anything after this entry."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    kid: Kid
    reason: Annotated[str, Field(max_length=1000)] = ""

    def event(self) -> tuple[str, dict[str, Any]]:
        return KEY_REVOKED, self.model_dump()
