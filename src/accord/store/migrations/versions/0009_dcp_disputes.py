"""DCP-07 disputes: disputes, their parties, evidence (content-addressed) and timeline.

Revision ID: 0009_dcp_disputes
Revises: 0008_interactions
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_dcp_disputes"
down_revision = "0008_interactions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "dcp_disputes",
        sa.Column("dispute_id", sa.String(64), primary_key=True),
        sa.Column("opened_seq", sa.BigInteger, nullable=False, unique=True),
        sa.Column("dispute_type", sa.String(40), nullable=False),
        sa.Column("severity", sa.String(16), nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("tier", sa.String(40), nullable=False),
        sa.Column("complainant_id", sa.String(256), nullable=False),
        sa.Column("opened_at", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
        sa.Column("escalation_deadline", sa.String(40), nullable=True),
        sa.Column("party_escalated", sa.Boolean, nullable=False),
        sa.Column("resolution_id", sa.String(64), nullable=True),
        sa.Column("resolved_against_complainant", sa.Boolean, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("document", sa.Text, nullable=False),
        sa.Column("resolution", sa.Text, nullable=True),
    )
    op.create_index("ix_dcp_disputes_complainant", "dcp_disputes", ["complainant_id", "opened_at"])
    op.create_index("ix_dcp_disputes_status", "dcp_disputes", ["status", "opened_seq"])
    op.create_table(
        "dcp_dispute_parties",
        sa.Column("dispute_id", sa.String(64), primary_key=True),
        sa.Column("agent_id", sa.String(256), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("principal_id", sa.String(256), nullable=False),
        sa.Column("organization_id", sa.String(256), nullable=False),
    )
    op.create_index(
        "ix_dcp_dispute_parties_agent", "dcp_dispute_parties", ["agent_id", "dispute_id"]
    )
    op.create_table(
        "dcp_evidence_contents",
        sa.Column("content_hash", sa.String(80), primary_key=True),
        sa.Column("media", sa.String(16), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("content", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "dcp_dispute_evidence",
        sa.Column("dispute_id", sa.String(64), primary_key=True),
        sa.Column("evidence_id", sa.String(256), primary_key=True),
        sa.Column("submitted_by", sa.String(256), nullable=False),
        sa.Column("evidence_type", sa.String(256), nullable=False),
        sa.Column("reference", sa.String(256), nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("content_hash", sa.String(80), nullable=False),
        sa.Column("submitted_at", sa.String(40), nullable=False),
        sa.Column("ledger_seq", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "dcp_dispute_events",
        sa.Column("dispute_id", sa.String(64), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("event_type", sa.String(64), nullable=False),
        sa.Column("actor", sa.String(256), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("tier", sa.String(40), nullable=False),
        sa.Column("ledger_seq", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dcp_dispute_events")
    op.drop_table("dcp_dispute_evidence")
    op.drop_table("dcp_evidence_contents")
    op.drop_index("ix_dcp_dispute_parties_agent", table_name="dcp_dispute_parties")
    op.drop_table("dcp_dispute_parties")
    op.drop_index("ix_dcp_disputes_status", table_name="dcp_disputes")
    op.drop_index("ix_dcp_disputes_complainant", table_name="dcp_disputes")
    op.drop_table("dcp_disputes")
