"""API keys of the HTTP service (hashed tokens bound to a role).

Revision ID: 0005_api_keys
Revises: 0004_boundaries
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_api_keys"
down_revision = "0004_boundaries"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("key_id", sa.String(64), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("agent_id", sa.String(256), nullable=True),
        sa.Column("principal_id", sa.String(256), nullable=True),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("expires_at", sa.String(40), nullable=True),
        sa.Column("revoked_at", sa.String(40), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("api_keys")
