"""The interaction log (R32): A2A interactions between agents.

Revision ID: 0008_interactions
Revises: 0007_precedents
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_interactions"
down_revision = "0007_precedents"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "agent_interactions",
        sa.Column("interaction_id", sa.String(64), primary_key=True),
        sa.Column("agent_a", sa.String(256), nullable=False),
        sa.Column("agent_b", sa.String(256), nullable=False),
        sa.Column("occurred_at", sa.String(40), nullable=False),
    )
    op.create_index(
        "ix_agent_interactions_pair",
        "agent_interactions",
        ["agent_a", "agent_b", "occurred_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_agent_interactions_pair", table_name="agent_interactions")
    op.drop_table("agent_interactions")
