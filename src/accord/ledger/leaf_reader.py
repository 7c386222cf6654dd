"""Merkle leaf hashes read from the stored entries (for proofs and roots over any size)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection, select

from accord.ledger.merkle import leaf_hash
from accord.store.tables import ledger_entries


def leaf_hashes(conn: Connection, after: int, upto: int) -> Iterator[bytes]:
    """The RFC 6962 leaf hashes of entries ``after < seq <= upto``, in order."""
    rows = conn.execute(
        select(ledger_entries.c.entry_hash)
        .where(ledger_entries.c.seq > after, ledger_entries.c.seq <= upto)
        .order_by(ledger_entries.c.seq)
    )
    for (h,) in rows:
        yield leaf_hash(bytes.fromhex(h.removeprefix("sha256:")))


def leaf_reader(conn: Connection) -> Any:
    """A ``merkle.LeafHashReader`` over ``conn``: leaves ``[start, end)`` by index."""

    def read(start: int, end: int) -> list[bytes]:
        return list(leaf_hashes(conn, start, end))

    return read
