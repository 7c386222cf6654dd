"""Disagreement boundaries recorded at session close, and their probe attempts.

Revision ID: 0004_boundaries
Revises: 0003_approvals
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_boundaries"
down_revision = "0003_approvals"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "boundaries",
        sa.Column("boundary_id", sa.String(64), primary_key=True),
        sa.Column("session_id", sa.String(128), nullable=False),
        sa.Column("case_id", sa.String(64), nullable=False, unique=True),
        sa.Column("task_type", sa.String(128), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("digest", sa.String(80), nullable=False),
        sa.Column("size_bytes", sa.BigInteger, nullable=False),
        sa.Column("transcript_bytes", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("resolved_at", sa.String(40), nullable=True),
        sa.Column("document", sa.Text, nullable=False),
    )
    op.create_index("ix_boundaries_session_status", "boundaries", ["session_id", "status"])
    op.create_index("ix_boundaries_status", "boundaries", ["status"])
    op.create_table(
        "boundary_attempts",
        sa.Column("attempt_id", sa.String(64), primary_key=True),
        sa.Column("boundary_id", sa.String(64), nullable=False),
        sa.Column("probe", sa.String(64), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("attempted_at", sa.String(40), nullable=False),
        sa.Column("receipt_hash", sa.String(80), nullable=False),
        sa.Column("document", sa.Text, nullable=False),
    )
    op.create_index("ix_boundary_attempts_boundary", "boundary_attempts", ["boundary_id"])


def downgrade() -> None:
    op.drop_table("boundary_attempts")
    op.drop_table("boundaries")
