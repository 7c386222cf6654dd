"""Indexes for the service's pages (issue 13): the queue and the case list by status, in
page order, so a page of 50 is one index range scan however many rows have that status.

The single-column status indexes they replace are their prefixes (status lookups still use
an index).

Revision ID: 0012_service_indexes
Revises: 0008_interactions
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0012_service_indexes"
down_revision = "0011_dcp_compliance_objections"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_approval_items_status", table_name="approval_items")
    op.create_index(
        "ix_approval_items_status_page", "approval_items", ["status", "created_at", "item_id"]
    )
    op.drop_index("ix_cases_status", table_name="cases")
    op.create_index("ix_cases_status_page", "cases", ["status", "created_at", "case_id"])


def downgrade() -> None:
    op.drop_index("ix_cases_status_page", table_name="cases")
    op.create_index("ix_cases_status", "cases", ["status"])
    op.drop_index("ix_approval_items_status_page", table_name="approval_items")
    op.create_index("ix_approval_items_status", "approval_items", ["status"])
