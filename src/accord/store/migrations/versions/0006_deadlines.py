"""Deadlines as rows: one mechanism for DCP tiers and the approval queue's timeouts.

Pending approval items that already have a deadline get their armed row here, so a database
upgraded while items wait keeps every deadline.

Revision ID: 0006_deadlines
Revises: 0005_api_keys
Create Date: 2026-12-01
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

from accord.ids import new_id

revision = "0006_deadlines"
down_revision = "0005_api_keys"
branch_labels = None
depends_on = None

_ARMED = sa.text("state = 'armed'")


def upgrade() -> None:
    op.create_table(
        "deadlines",
        sa.Column("deadline_id", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("subject_id", sa.String(64), nullable=False),
        sa.Column("tier", sa.String(40), nullable=True),
        sa.Column("due_at", sa.String(40), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("armed_at", sa.String(40), nullable=False),
        sa.Column("fired_at", sa.String(40), nullable=True),
        sa.Column("cancelled_at", sa.String(40), nullable=True),
        sa.Column("fired_by", sa.String(128), nullable=True),
        sa.Column("outcome", sa.String(40), nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("last_error", sa.Text, nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_index("ix_deadlines_state_due", "deadlines", ["state", "due_at"])
    op.create_index("ix_deadlines_subject", "deadlines", ["kind", "subject_id"])
    op.create_index(
        "ux_deadlines_armed_subject",
        "deadlines",
        ["kind", "subject_id"],
        unique=True,
        sqlite_where=_ARMED,
        postgresql_where=_ARMED,
    )
    _arm_pending_approval_items()


def _arm_pending_approval_items() -> None:
    conn = op.get_bind()
    pending = conn.execute(
        sa.text(
            "SELECT item_id, escalation_step, deadline, created_at FROM approval_items "
            "WHERE status = 'pending' AND deadline IS NOT NULL"
        )
    ).all()
    rows = [
        {
            "deadline_id": new_id("ddl", datetime.fromisoformat(deadline)),
            "kind": "approval_timeout",
            "subject_id": item_id,
            "tier": str(step),
            "due_at": deadline,
            "state": "armed",
            "armed_at": created_at,
            "attempts": 0,
            "version": 1,
        }
        for item_id, step, deadline, created_at in pending
    ]
    if rows:
        conn.execute(
            sa.text(
                "INSERT INTO deadlines (deadline_id, kind, subject_id, tier, due_at, state, "
                "armed_at, attempts, version) VALUES (:deadline_id, :kind, :subject_id, :tier, "
                ":due_at, :state, :armed_at, :attempts, :version)"
            ),
            rows,
        )


def downgrade() -> None:
    op.drop_table("deadlines")
