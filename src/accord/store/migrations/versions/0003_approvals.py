"""The human approval queue and the agents' tasks parked on it.

Revision ID: 0003_approvals
Revises: 0002_cases
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_approvals"
down_revision = "0002_cases"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "approval_items",
        sa.Column("item_id", sa.String(64), primary_key=True),
        sa.Column("case_id", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("risk", sa.String(16), nullable=False),
        sa.Column("policy_kind", sa.String(32), nullable=False),
        sa.Column("escalation_step", sa.Integer, nullable=False),
        sa.Column("offered_to_role", sa.String(128), nullable=True),
        sa.Column("deadline", sa.String(40), nullable=True),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("decided_at", sa.String(40), nullable=True),
        sa.Column("decided_by", sa.String(256), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("document", sa.Text, nullable=False),
    )
    op.create_index("ix_approval_items_status", "approval_items", ["status"])
    op.create_index("ix_approval_items_deadline", "approval_items", ["deadline"])
    op.create_index("ix_approval_items_case", "approval_items", ["case_id"])
    op.create_table(
        "parked_tasks",
        sa.Column("task_id", sa.String(64), primary_key=True),
        sa.Column("item_id", sa.String(64), nullable=False),
        sa.Column("agent_id", sa.String(256), nullable=False),
        sa.Column("parked_at", sa.String(40), nullable=False),
        sa.Column("resumed_at", sa.String(40), nullable=True),
        sa.Column("context", sa.Text, nullable=False),
    )
    op.create_index("ix_parked_tasks_item", "parked_tasks", ["item_id"])
    op.create_index("ix_parked_tasks_agent", "parked_tasks", ["agent_id"])


def downgrade() -> None:
    op.drop_table("parked_tasks")
    op.drop_table("approval_items")
