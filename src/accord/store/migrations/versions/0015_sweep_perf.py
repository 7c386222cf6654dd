"""The sweeper's claim index (issue 12): due armed deadlines in claim order.

A claim reads ``state = 'armed' AND due_at <= now ORDER BY due_at, deadline_id LIMIT n``.
Over ``(state, due_at)`` every row due at one instant had to be read and sorted to take the
first ``n`` (10,000 disputes filed together share one ``due_at``); with ``deadline_id`` in
the index the claim reads its ``n`` rows in order and stops. It replaces the two-column
index, its prefix.

Revision ID: 0015_sweep_perf
Revises: 0014_agent_cases
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0015_sweep_perf"
down_revision = "0014_agent_cases"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_deadlines_state_due", table_name="deadlines")
    op.create_index("ix_deadlines_state_due_id", "deadlines", ["state", "due_at", "deadline_id"])


def downgrade() -> None:
    op.drop_index("ix_deadlines_state_due_id", table_name="deadlines")
    op.create_index("ix_deadlines_state_due", "deadlines", ["state", "due_at"])
