"""The signed ledger: entries and checkpoints.

Revision ID: 0001_ledger
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_ledger"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ledger_entries",
        sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("event_type", sa.String(64), nullable=False),
        sa.Column("timestamp", sa.String(40), nullable=False),
        sa.Column("signer_kid", sa.String(64), nullable=False),
        sa.Column("body", sa.LargeBinary, nullable=False),
        sa.Column("signature", sa.LargeBinary, nullable=False),
        sa.Column("entry_hash", sa.String(80), nullable=False),
        sa.Column("entry_hash_secondary", sa.String(80), nullable=False),
    )
    op.create_index("ix_ledger_entries_event_type", "ledger_entries", ["event_type"])
    op.create_table(
        "ledger_checkpoints",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tree_size", sa.BigInteger, nullable=False, unique=True),
        sa.Column("body", sa.LargeBinary, nullable=False),
        sa.Column("signature", sa.LargeBinary, nullable=False),
        sa.Column("signer_kid", sa.String(64), nullable=False),
        sa.Column("frontier", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ledger_checkpoints")
    op.drop_index("ix_ledger_entries_event_type", table_name="ledger_entries")
    op.drop_table("ledger_entries")
