"""A panel's recommended resolution awaiting the parties, and who accepted it (R15).

Revision ID: 0019_panel_resolution
Revises: 0018_webhooks
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_panel_resolution"
down_revision = "0018_webhooks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("dispute_panels") as batch:
        batch.add_column(sa.Column("recommendation", sa.Text, nullable=True))
        batch.add_column(sa.Column("accepted_by", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("dispute_panels") as batch:
        batch.drop_column("accepted_by")
        batch.drop_column("recommendation")
