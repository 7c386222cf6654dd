"""Webhook subscriptions and their outbox / delivery log (issue 30, item 5).

Revision ID: 0018_webhooks
Revises: 0017_idempotency
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_webhooks"
down_revision = "0017_idempotency"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhook_subscriptions",
        sa.Column("subscription_id", sa.String(64), primary_key=True),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("events", sa.Text, nullable=False),
        sa.Column("agent", sa.String(256), nullable=True),
        sa.Column("secret", sa.String(256), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "webhook_deliveries",
        sa.Column("delivery_id", sa.String(64), primary_key=True),
        sa.Column("subscription_id", sa.String(64), nullable=False),
        sa.Column("event", sa.String(40), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("dedupe_key", sa.String(256), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("next_attempt_at", sa.String(40), nullable=False),
        sa.Column("last_attempt_at", sa.String(40), nullable=True),
        sa.Column("last_status", sa.Integer, nullable=True),
        sa.Column("last_error", sa.Text, nullable=True),
        sa.Column("delivered_at", sa.String(40), nullable=True),
    )
    op.create_index("ix_webhook_deliveries_due", "webhook_deliveries", ["state", "next_attempt_at"])
    op.create_index(
        "ux_webhook_deliveries_dedupe",
        "webhook_deliveries",
        ["subscription_id", "dedupe_key"],
        unique=True,
    )


def downgrade() -> None:
    op.drop_table("webhook_deliveries")
    op.drop_table("webhook_subscriptions")
