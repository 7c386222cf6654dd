"""Ballot papers (issue 12 item 5): the approval item through which each human panel member
votes, so the reviewer's decision on it becomes that member's vote; agreement drafts: each
tier-1 proposal's §6 resolution, signed by every party that accepts it.

Revision ID: 0013_human_arb
Revises: 0012_service_indexes
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_human_arb"
down_revision = "0012_service_indexes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dispute_ballot_papers",
        sa.Column("item_id", sa.String(64), primary_key=True),
        sa.Column("panel_id", sa.String(64), nullable=False),
        sa.Column("dispute_id", sa.String(64), nullable=False),
        sa.Column("agent_id", sa.String(256), nullable=False),
        sa.UniqueConstraint("panel_id", "agent_id", name="uq_dispute_ballot_papers_member"),
    )


    op.create_table(
        "dispute_agreement_drafts",
        sa.Column("proposal_id", sa.String(64), primary_key=True),
        sa.Column("dispute_id", sa.String(64), nullable=False),
        sa.Column("resolution", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dispute_agreement_drafts")
    op.drop_table("dispute_ballot_papers")
