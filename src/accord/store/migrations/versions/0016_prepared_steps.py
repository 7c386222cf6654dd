"""Prepared tier steps: a DCP-07 step an agent signs with its own key (prepare, then sign).

Revision ID: 0016_prepared_steps
Revises: 0015_sweep_perf
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_prepared_steps"
down_revision = "0015_sweep_perf"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dispute_prepared_steps",
        sa.Column("prepared_id", sa.String(64), primary_key=True),
        sa.Column("dispute_id", sa.String(64), nullable=False),
        sa.Column("step", sa.String(32), nullable=False),
        sa.Column("arguments", sa.Text, nullable=False),
        sa.Column("actor_id", sa.String(256), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("kid", sa.String(128), nullable=False),
        sa.Column("pinned_at", sa.String(40), nullable=False),
        sa.Column("id_seed", sa.String(64), nullable=False),
        sa.Column("head_seq", sa.BigInteger, nullable=False),
        sa.Column("head_hash", sa.String(80), nullable=False),
        sa.Column("head_hash_secondary", sa.String(80), nullable=False),
        sa.Column("dispute_record_hash", sa.String(80), nullable=False),
        sa.Column("payloads", sa.Text, nullable=False),
        sa.Column("signatures", sa.Text, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("expires_at", sa.String(40), nullable=False),
        sa.Column("consumed_at", sa.String(40), nullable=True),
    )
    op.create_index("ix_dispute_prepared_steps_expiry", "dispute_prepared_steps", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_dispute_prepared_steps_expiry", table_name="dispute_prepared_steps")
    op.drop_table("dispute_prepared_steps")
