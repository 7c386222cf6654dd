"""DCP-07 compliance and objections: required actions, non-compliance flags, objections, stays.

Revision ID: 0011_dcp_compliance_objections
Revises: 0009_dcp_disputes
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_dcp_compliance_objections"
down_revision = "0010_dcp_tiers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "compliance_actions",
        sa.Column("action_id", sa.String(64), primary_key=True),
        sa.Column("dispute_id", sa.String(64), nullable=False),
        sa.Column("resolution_id", sa.String(64), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("agent_id", sa.String(256), nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("method", sa.String(64), nullable=False),
        sa.Column("due_at", sa.String(40), nullable=False),
        sa.Column("resolution_seq", sa.BigInteger, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("settled_at", sa.String(40), nullable=True),
        sa.Column("ledger_seq", sa.BigInteger, nullable=True),
        sa.Column("failure", sa.Text, nullable=True),
        sa.Column("followup_dispute_id", sa.String(64), nullable=True),
    )
    op.create_index(
        "ix_compliance_actions_dispute", "compliance_actions", ["dispute_id", "position"]
    )
    op.create_index("ix_compliance_actions_agent", "compliance_actions", ["agent_id", "state"])
    op.create_index(
        "ux_compliance_actions_resolution",
        "compliance_actions",
        ["resolution_id", "position"],
        unique=True,
    )
    op.create_table(
        "compliance_flags",
        sa.Column("flag_id", sa.String(64), primary_key=True),
        sa.Column("agent_id", sa.String(256), nullable=False),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("threshold", sa.Integer, nullable=False),
        sa.Column("dispute_id", sa.String(64), nullable=False),
        sa.Column("flagged_at", sa.String(40), nullable=False),
        sa.Column("ledger_seq", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_compliance_flags_agent", "compliance_flags", ["agent_id", "flagged_at"])
    op.create_table(
        "dispute_objections",
        sa.Column("objection_id", sa.String(64), primary_key=True),
        sa.Column("dispute_id", sa.String(64), nullable=False),
        sa.Column("resolution_id", sa.String(64), nullable=False),
        sa.Column("objection_type", sa.String(16), nullable=False),
        sa.Column("objecting_agent", sa.String(256), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("routed_to", sa.String(40), nullable=True),
        sa.Column("filed_at", sa.String(40), nullable=False),
        sa.Column("record_hash", sa.String(80), nullable=False),
        sa.Column("ledger_seq", sa.BigInteger, nullable=False),
        sa.Column("document", sa.Text, nullable=False),
    )
    op.create_index(
        "ix_dispute_objections_dispute", "dispute_objections", ["dispute_id", "filed_at"]
    )
    op.create_index(
        "ix_dispute_objections_resolution", "dispute_objections", ["resolution_id", "filed_at"]
    )
    op.create_table(
        "dispute_stays",
        sa.Column("objection_id", sa.String(64), primary_key=True),
        sa.Column("dispute_id", sa.String(64), nullable=False),
        sa.Column("resolution_id", sa.String(64), nullable=False),
        sa.Column("ordered_by", sa.String(256), nullable=False),
        sa.Column("ordered_at", sa.String(40), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("ledger_seq", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_dispute_stays_resolution", "dispute_stays", ["resolution_id"])


def downgrade() -> None:
    op.drop_index("ix_compliance_actions_dispute", table_name="compliance_actions")
    op.drop_index("ix_compliance_actions_agent", table_name="compliance_actions")
    op.drop_index("ux_compliance_actions_resolution", table_name="compliance_actions")
    op.drop_table("compliance_actions")
    op.drop_index("ix_compliance_flags_agent", table_name="compliance_flags")
    op.drop_table("compliance_flags")
    op.drop_index("ix_dispute_objections_dispute", table_name="dispute_objections")
    op.drop_index("ix_dispute_objections_resolution", table_name="dispute_objections")
    op.drop_table("dispute_objections")
    op.drop_index("ix_dispute_stays_resolution", table_name="dispute_stays")
    op.drop_table("dispute_stays")
