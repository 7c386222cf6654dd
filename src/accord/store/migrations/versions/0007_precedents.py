"""The jurisprudence registry: signed bundles, their search index and supersession edges.

Revision ID: 0007_precedents
Revises: 0006_deadlines
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_precedents"
down_revision = "0006_deadlines"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "precedent_bundles",
        sa.Column("jurisprudence_id", sa.String(64), primary_key=True),
        sa.Column("seq", sa.BigInteger, nullable=False, unique=True),
        sa.Column("dispute_type", sa.String(40), nullable=False),
        sa.Column("authority_rank", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("bundle_hash", sa.String(80), nullable=False),
        sa.Column("bundle_hash_secondary", sa.String(80), nullable=False),
        sa.Column("document", sa.Text, nullable=False),
    )
    op.create_table(
        "precedent_types",
        sa.Column("dispute_type", sa.String(40), primary_key=True),
        sa.Column("jurisprudence_id", sa.String(64), primary_key=True),
        sa.Column("authority_rank", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
    )
    op.create_index(
        "ix_precedent_types_ranked",
        "precedent_types",
        ["dispute_type", "authority_rank", "created_at", "seq"],
    )
    op.create_table(
        "precedent_conditions",
        sa.Column("dispute_type", sa.String(40), primary_key=True),
        sa.Column("applicability", sa.String(16), primary_key=True),
        sa.Column("condition", sa.String(256), primary_key=True),
        sa.Column("jurisprudence_id", sa.String(64), primary_key=True),
        sa.Column("authority_rank", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
    )
    op.create_index(
        "ix_precedent_conditions_ranked",
        "precedent_conditions",
        ["dispute_type", "applicability", "condition", "authority_rank", "created_at", "seq"],
    )
    op.create_table(
        "precedent_supersessions",
        sa.Column("superseded_id", sa.String(64), primary_key=True),
        sa.Column("superseding_id", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_index(
        "ix_precedent_supersessions_superseding", "precedent_supersessions", ["superseding_id"]
    )


def downgrade() -> None:
    op.drop_table("precedent_supersessions")
    op.drop_index("ix_precedent_conditions_ranked", table_name="precedent_conditions")
    op.drop_table("precedent_conditions")
    op.drop_index("ix_precedent_types_ranked", table_name="precedent_types")
    op.drop_table("precedent_types")
    op.drop_table("precedent_bundles")
