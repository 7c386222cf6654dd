"""``api_keys`` rows are audited (issue 31, item 4): every issue and revocation is signed into
the ledger, so a key row nobody issued — a reviewer key inserted for a configured reviewer —
and any changed column fail ``verify`` naming the key; SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, insert, select, update

from accord.api import ApiKeyStore
from accord.api.api_keys import token_hash
from accord.app import Accord
from accord.clock import FrozenClock
from accord.errors import VerificationFailed
from accord.ledger import API_KEY_ISSUED, API_KEY_REVOKED
from accord.store.tables import api_keys

from .conftest import Populated

FORGED_TOKEN = "acc_" + "m" * 43


def _fails(populated: Populated, tamper: Callable[[Connection], Any]) -> VerificationFailed:
    try:
        with populated.accord.db.write() as conn:
            tamper(conn)
        with pytest.raises(VerificationFailed) as caught:
            populated.accord.verify(workers=1)
        return caught.value
    finally:
        populated.restore({"api_keys"})


def _key(populated: Populated, role: str) -> dict[str, Any]:
    return next(r for r in populated.rows["api_keys"] if r["role"] == role)


def test_a_reviewer_key_inserted_into_the_database_fails_verify_naming_it(
    populated: Populated,
) -> None:
    row = {**_key(populated, "reviewer"), "key_id": "key:forged", "label": "mallory"}
    row["token_hash"] = token_hash(FORGED_TOKEN)
    error = _fails(populated, lambda conn: conn.execute(insert(api_keys).values(row)))
    assert error.code == "api_keys.unbacked"
    assert error.context["key"] == "key:forged"
    assert "reviewer key (for human:alice)" in error.message


@pytest.mark.parametrize(
    ("role", "column", "value"),
    [
        ("reviewer", "principal_id", "human:mallory"),
        ("reviewer", "token_hash", token_hash(FORGED_TOKEN)),
        ("reviewer", "expires_at", None),
        ("agent", "role", "admin"),
        ("agent", "revoked_at", None),  # a revocation undone
    ],
)
def test_a_changed_key_column_fails_verify_naming_key_and_column(
    populated: Populated, role: str, column: str, value: Any
) -> None:
    key = _key(populated, role)
    if key[column] == value:
        value = "2099-01-01T00:00:00.000000Z"
    changes: dict[str, Any] = {column: value}
    if column == "role":
        changes["agent_id"] = None
    error = _fails(
        populated,
        lambda conn: conn.execute(
            update(api_keys).where(api_keys.c.key_id == key["key_id"]).values(changes)
        ),
    )
    assert error.code == "api_keys.mismatch"
    assert (error.context["key"], error.context["column"]) == (key["key_id"], column)


def test_issue_and_revocation_are_signed_and_an_unrecorded_old_key_is_recorded_by_revoking_it(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    accord = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    try:
        keys = ApiKeyStore(accord.ledger, accord.clock)
        issued, _ = keys.create("auditor", label="ci")
        keys.revoke(issued.key_id)
        keys.revoke(issued.key_id)  # the first time stands: no second record
        kinds = [e.event_type for e in accord.ledger.entries() if e.event_type.startswith("api_")]
        assert kinds == [API_KEY_ISSUED, API_KEY_REVOKED]
        with accord.db.write() as conn:  # as a release before 0.19 left a key: no record
            old = dict(conn.execute(select(api_keys)).mappings().one())
            old |= {"key_id": "key:old", "token_hash": token_hash(FORGED_TOKEN), "revoked_at": None}
            conn.execute(insert(api_keys).values(old))
        with pytest.raises(VerificationFailed) as unrecorded:
            accord.verify(workers=1)
        assert unrecorded.value.code == "api_keys.unbacked"
        keys.revoke("key:old")
        accord.verify(workers=1)
    finally:
        accord.close()
