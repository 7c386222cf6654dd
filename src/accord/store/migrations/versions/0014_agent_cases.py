"""Collecting cases: a question put to named agents, each submitting its own position.

Revision ID: 0014_agent_cases
Revises: 0013_human_arb
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_agent_cases"
down_revision = "0013_human_arb"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "collecting_cases",
        sa.Column("collecting_id", sa.String(64), primary_key=True),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("task_type", sa.String(128), nullable=False),
        sa.Column("session_id", sa.String(128), nullable=True),
        sa.Column("opened_by", sa.String(256), nullable=False),
        sa.Column("opened_at", sa.String(40), nullable=False),
        sa.Column("deadline_at", sa.String(40), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("case_id", sa.String(64), nullable=True),
        sa.Column("closed_at", sa.String(40), nullable=True),
        sa.Column("closed_reason", sa.String(40), nullable=True),
    )
    op.create_index(
        "ix_collecting_cases_status", "collecting_cases", ["status", "collecting_id"]
    )
    op.create_table(
        "collecting_parties",
        sa.Column("collecting_id", sa.String(64), primary_key=True),
        sa.Column("agent_id", sa.String(256), primary_key=True),
        sa.Column("ordinal", sa.Integer, nullable=False),
        sa.Column("position", sa.Text, nullable=True),
        sa.Column("submitted_at", sa.String(40), nullable=True),
        sa.Column("signature", sa.Text, nullable=True),
    )
    op.create_index(
        "ix_collecting_parties_agent", "collecting_parties", ["agent_id", "collecting_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_collecting_parties_agent", table_name="collecting_parties")
    op.drop_table("collecting_parties")
    op.drop_index("ix_collecting_cases_status", table_name="collecting_cases")
    op.drop_table("collecting_cases")
