"""Checking ``api_keys`` rows against the signed ``api_key_issued`` / ``api_key_revoked``
records (``ledger/api_key_events.py``).

Each record is the key's whole row (the token's SHA-256, its role, agent or principal, expiry
and revocation), so every column must equal the key's latest signed record: a row nobody
issued (a reviewer key inserted into the database), a role or principal changed, a token hash
swapped or a revocation undone is reported, naming the key. A key issued before this audit
existed (release 0.19) has no record: revoke it (the revocation records the row) and issue a
new one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, select

from accord.audit.paths import RowProblem, shown
from accord.ledger import API_KEY_FIELDS
from accord.store.tables import api_keys

#: Each column of ``api_keys``: the field of the key's latest signed record it must equal.
API_KEY_COLUMNS: Mapping[str, str] = dict.fromkeys(
    API_KEY_FIELDS, "the key's latest signed api_key_issued / api_key_revoked record's field"
)


def signed_api_keys(
    records: Iterable[tuple[int, str, Mapping[str, Any]]],
) -> dict[str, dict[str, Any]]:
    """Key id → its latest signed row (``records_within(conn, API_KEY_EVENTS)``)."""
    found: dict[str, dict[str, Any]] = {}
    for _seq, _event_type, record in records:
        key_id = record.get("key_id")
        if isinstance(key_id, str):
            found[key_id] = {name: record.get(name) for name in API_KEY_FIELDS}
    return found


def audit_api_keys(
    conn: Connection, signed: Mapping[str, Mapping[str, Any]]
) -> tuple[int, RowProblem | None]:
    """Check every key row against its signed record; returns the rows checked and the first
    problem (keys are few: read at once)."""
    checked, seen = 0, set[str]()
    for row in conn.execute(select(api_keys).order_by(api_keys.c.key_id)):
        stored = dict(row._mapping)
        key = str(stored["key_id"])
        checked += 1
        seen.add(key)
        expected = signed.get(key)
        if expected is None:
            who = stored.get("principal_id") or stored.get("agent_id") or "no one"
            return checked, _problem(
                "unbacked",
                key,
                "row",
                f"no signed api_key_issued record issues this {stored.get('role')} key "
                f"(for {who}); a key issued before 0.19: revoke it and issue a new one",
            )
        for column in API_KEY_FIELDS:
            if stored[column] != expected[column]:
                return checked, _problem(
                    "mismatch",
                    key,
                    column,
                    "differs from the key's signed record",
                    shown(expected[column]),
                    shown(stored[column]),
                )
    for missing in sorted(signed.keys() - seen):
        return checked, _problem("missing_row", missing, "row", "issued, but no key row")
    return checked, None


def _problem(
    kind: str,
    key: str,
    column: str,
    rule: str,
    expected: str | None = None,
    stored: str | None = None,
) -> RowProblem:
    return RowProblem(
        code=f"api_keys.{kind}",
        table="api_keys",
        key=key,
        column=column,
        rule=rule,
        expected=expected,
        stored=stored,
    )
