"""API keys in the signed ledger: every issue and revocation of an HTTP key is recorded, so an
``api_keys`` row nobody issued (say, a reviewer key inserted into the database) fails verify.

:func:`record_api_key_event` is the one way a key's row is recorded, inside the transaction
that writes the row; the record is the whole row (the token's SHA-256, never the token), so
the audit compares every column with the key's latest signed record.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from sqlalchemy import Connection

from accord.ledger.ledger import Ledger

API_KEY_ISSUED: Final = "api_key_issued"
API_KEY_REVOKED: Final = "api_key_revoked"
API_KEY_EVENTS: Final = (API_KEY_ISSUED, API_KEY_REVOKED)
API_KEY_FIELDS: Final = (
    "key_id",
    "token_hash",
    "role",
    "agent_id",
    "principal_id",
    "label",
    "created_at",
    "expires_at",
    "revoked_at",
)
"""Every column of ``api_keys``, as the record states it."""


def api_key_record(row: Mapping[str, Any], *, by: str | None = None) -> dict[str, Any]:
    """The signed record of an ``api_keys`` row (the one builder); ``by`` names the key that
    issued or revoked it over HTTP (absent when a shell on the server did)."""
    record = {name: row[name] for name in API_KEY_FIELDS}
    return record if by is None else record | {"by": by}


def record_api_key_event(
    ledger: Ledger, conn: Connection, row: Mapping[str, Any], *, by: str | None = None
) -> int:
    """Sign ``row`` (an ``api_keys`` row as just written in ``conn``) into the ledger:
    ``api_key_revoked`` once it carries ``revoked_at``, ``api_key_issued`` before, naming
    ``by`` when given. Returns the entry's seq."""
    event = API_KEY_ISSUED if row["revoked_at"] is None else API_KEY_REVOKED
    return ledger.append_within(conn, [(event, api_key_record(row, by=by))])[0].seq
