"""Ledger rows no verification walks: entries with ``seq <= 0`` (the chain starts at 1, and a
gap or a row past the head is caught by the chain walk itself) and checkpoints of no size."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, select

from accord.store.tables import ledger_checkpoints, ledger_entries


@dataclass(frozen=True)
class OutsideRow:
    """A ledger row outside the chain."""

    table: str
    key: str
    column: str
    rule: str


def row_outside_chain(conn: Connection) -> OutsideRow | None:
    """The first ledger or checkpoint row that lies outside the chain, if any."""
    seq = conn.execute(
        select(ledger_entries.c.seq)
        .where(ledger_entries.c.seq <= 0)
        .order_by(ledger_entries.c.seq)
        .limit(1)
    ).scalar_one_or_none()
    if seq is not None:
        return OutsideRow("ledger_entries", str(seq), "seq", "the chain starts at seq 1")
    size = conn.execute(
        select(ledger_checkpoints.c.tree_size)
        .where(ledger_checkpoints.c.tree_size <= 0)
        .order_by(ledger_checkpoints.c.tree_size)
        .limit(1)
    ).scalar_one_or_none()
    if size is not None:
        return OutsideRow(
            "ledger_checkpoints", str(size), "tree_size", "a checkpoint covers at least 1 entry"
        )
    return None
