"""DCP-07 tiers 1–3 on a persisted dispute: negotiation steps, the coin flip, nominations,
panels, votes and human-appeal decisions.

Revision ID: 0010_dcp_tiers
Revises: 0009_dcp_disputes
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_dcp_tiers"
down_revision = "0009_dcp_disputes"
branch_labels = None
depends_on = None

_ID = 64
_AGENT = 256
_TIME = 40


def upgrade() -> None:
    op.create_table(
        "dispute_negotiation_steps",
        sa.Column("dispute_id", sa.String(_ID), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("agent_id", sa.String(_AGENT), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("recorded_at", sa.String(_TIME), nullable=False),
    )
    op.create_table(
        "dispute_coin_flips",
        sa.Column("dispute_id", sa.String(_ID), primary_key=True),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("commit_deadline", sa.String(_TIME), nullable=False),
        sa.Column("reveal_deadline", sa.String(_TIME), nullable=False),
        sa.Column("opened_at", sa.String(_TIME), nullable=False),
    )
    op.create_table(
        "dispute_coin_steps",
        sa.Column("dispute_id", sa.String(_ID), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("agent_id", sa.String(_AGENT), primary_key=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("recorded_at", sa.String(_TIME), nullable=False),
    )
    op.create_table(
        "dispute_nominations",
        sa.Column("dispute_id", sa.String(_ID), primary_key=True),
        sa.Column("nominated_by", sa.String(_AGENT), primary_key=True),
        sa.Column("agent_id", sa.String(_AGENT), primary_key=True),
        sa.Column("nominated_at", sa.String(_TIME), nullable=False),
    )
    op.create_table(
        "dispute_panels",
        sa.Column("panel_id", sa.String(_ID), primary_key=True),
        sa.Column("dispute_id", sa.String(_ID), nullable=False, unique=True),
        sa.Column("formation", sa.Text, nullable=False),
        sa.Column("question", sa.Text, nullable=False),
        sa.Column("resolution_hash", sa.String(80), nullable=False),
        sa.Column("formed_at", sa.String(_TIME), nullable=False),
        sa.Column("vote_deadline", sa.String(_TIME), nullable=False),
        sa.Column("decision", sa.String(40), nullable=True),
        sa.Column("tallied_at", sa.String(_TIME), nullable=True),
        sa.Column("pending_resolution", sa.Text, nullable=True),
    )
    op.create_table(
        "dispute_panel_votes",
        sa.Column("panel_id", sa.String(_ID), primary_key=True),
        sa.Column("agent_id", sa.String(_AGENT), primary_key=True),
        sa.Column("dispute_id", sa.String(_ID), nullable=False),
        sa.Column("vote", sa.Text, nullable=False),
        sa.Column("reasoning", sa.Text, nullable=False),
        sa.Column("cast_at", sa.String(_TIME), nullable=False),
    )
    op.create_table(
        "dispute_appeal_decisions",
        sa.Column("dispute_id", sa.String(_ID), primary_key=True),
        sa.Column("resolution_id", sa.String(_ID), nullable=False),
        sa.Column("principals", sa.Text, nullable=False),
        sa.Column("decided_at", sa.String(_TIME), nullable=False),
    )


def downgrade() -> None:
    for table in (
        "dispute_appeal_decisions",
        "dispute_panel_votes",
        "dispute_panels",
        "dispute_nominations",
        "dispute_coin_steps",
        "dispute_coin_flips",
        "dispute_negotiation_steps",
    ):
        op.drop_table(table)
