"""The database schema as SQLAlchemy Core tables (Alembic migrations create them)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

#: One row per ledger entry. ``body`` holds the canonical signed bytes and is authoritative;
#: the other columns are derived copies kept for queries, and verification cross-checks them.
ledger_entries = Table(
    "ledger_entries",
    metadata,
    Column("seq", BigInteger, primary_key=True, autoincrement=False),
    Column("event_type", String(64), nullable=False),
    Column("timestamp", String(40), nullable=False),
    Column("signer_kid", String(64), nullable=False),
    Column("body", LargeBinary, nullable=False),
    Column("signature", LargeBinary, nullable=False),
    Column("entry_hash", String(80), nullable=False),
    Column("entry_hash_secondary", String(80), nullable=False),
    Index("ix_ledger_entries_event_type", "event_type"),
)

#: Signed tree heads. ``frontier`` (unsigned, derived) lets the next checkpoint extend this
#: one without re-reading the whole ledger; verification recomputes everything independently.
ledger_checkpoints = Table(
    "ledger_checkpoints",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tree_size", BigInteger, nullable=False, unique=True),
    Column("body", LargeBinary, nullable=False),
    Column("signature", LargeBinary, nullable=False),
    Column("signer_kid", String(64), nullable=False),
    Column("frontier", Text, nullable=False),
)
