"""Idempotency keys (settle and park, retried by frameworks) and a parked task's claimant.

Revision ID: 0017_idempotency
Revises: 0016_prepared_steps
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_idempotency"
down_revision = "0016_prepared_steps"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("scope", sa.String(16), primary_key=True),
        sa.Column("idempotency_key", sa.String(256), primary_key=True),
        sa.Column("request_digest", sa.String(64), nullable=False),
        sa.Column("result_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    with op.batch_alter_table("parked_tasks") as batch:
        batch.add_column(sa.Column("claim", sa.String(256), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("parked_tasks") as batch:
        batch.drop_column("claim")
    op.drop_table("idempotency_keys")
