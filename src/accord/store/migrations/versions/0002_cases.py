"""Cases, each party's part in them, and dissent records.

Revision ID: 0002_cases
Revises: 0001_ledger
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_cases"
down_revision = "0001_ledger"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cases",
        sa.Column("case_id", sa.String(64), primary_key=True),
        sa.Column("session_id", sa.String(128), nullable=True),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("task_type", sa.String(128), nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("dcp_status", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(40), nullable=True),
        sa.Column("severity", sa.String(16), nullable=True),
        sa.Column("dispute_type", sa.String(40), nullable=True),
        sa.Column("tier", sa.String(40), nullable=False),
        sa.Column("winner", sa.String(256), nullable=True),
        sa.Column("rung", sa.String(40), nullable=True),
        sa.Column("confidence_bp", sa.Integer, nullable=False),
        sa.Column("escalated", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("decided_at", sa.String(40), nullable=True),
        sa.Column("duration_ms", sa.Integer, nullable=False),
        sa.Column("document", sa.Text, nullable=False),
    )
    op.create_index("ix_cases_status", "cases", ["status"])
    op.create_index("ix_cases_session", "cases", ["session_id"])
    op.create_index("ix_cases_created", "cases", ["created_at"])
    op.create_index("ix_cases_task_type", "cases", ["task_type"])
    op.create_table(
        "case_parties",
        sa.Column("case_id", sa.String(64), primary_key=True),
        sa.Column("agent_id", sa.String(256), primary_key=True),
        sa.Column("task_type", sa.String(128), nullable=False),
        sa.Column("answer_key", sa.Text, nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_index("ix_case_parties_agent", "case_parties", ["agent_id"])
    op.create_table(
        "dissents",
        sa.Column("dissent_id", sa.String(64), primary_key=True),
        sa.Column("case_id", sa.String(64), nullable=False),
        sa.Column("agent_id", sa.String(256), nullable=False),
        sa.Column("task_type", sa.String(128), nullable=False),
        sa.Column("kind", sa.String(40), nullable=True),
        sa.Column("severity", sa.String(16), nullable=True),
        sa.Column("department", sa.String(128), nullable=True),
        sa.Column("strategy", sa.String(40), nullable=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("document", sa.Text, nullable=False),
    )
    op.create_index("ix_dissents_agent", "dissents", ["agent_id"])
    op.create_index("ix_dissents_created", "dissents", ["created_at"])
    op.create_index("ix_dissents_case", "dissents", ["case_id"])


def downgrade() -> None:
    op.drop_table("dissents")
    op.drop_table("case_parties")
    op.drop_table("cases")
