"""Precedent conditions are sentences compared case- and whitespace-blind (R24).

The search index holds each condition's key (case folded, whitespace runs one space) rather
than its text, so ``Exclusive  access`` matches ``exclusive access``. The rows are rebuilt
from the signed bundles; no signed record changes.

Revision ID: 0020_jurisprudence
Revises: 0019_panel_resolution
Create Date: 2026-12-06
"""

from __future__ import annotations

import json
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0020_jurisprudence"
down_revision = "0019_panel_resolution"
branch_labels = None
depends_on = None

_conditions = sa.table(
    "precedent_conditions",
    sa.column("dispute_type", sa.String),
    sa.column("applicability", sa.String),
    sa.column("condition", sa.String),
    sa.column("jurisprudence_id", sa.String),
    sa.column("authority_rank", sa.Integer),
    sa.column("created_at", sa.String),
    sa.column("seq", sa.BigInteger),
)
_types = sa.table(
    "precedent_types",
    sa.column("dispute_type", sa.String),
    sa.column("jurisprudence_id", sa.String),
    sa.column("authority_rank", sa.Integer),
    sa.column("created_at", sa.String),
    sa.column("seq", sa.BigInteger),
)
_bundles = sa.table(
    "precedent_bundles", sa.column("jurisprudence_id", sa.String), sa.column("document", sa.Text)
)


def _rebuild(key: Callable[[str], str]) -> None:
    conn = op.get_bind()
    found = conn.execute(sa.select(_bundles.c.jurisprudence_id, _bundles.c.document)).all()
    documents = dict(found)
    rows: list[dict[str, object]] = []
    for t in conn.execute(sa.select(_types)).mappings():
        applicability = json.loads(documents[t["jurisprudence_id"]])["applicability"]
        for kind in ("applicable", "inapplicable"):
            conditions = applicability[f"{kind}_conditions"]
            rows.extend(
                {**t, "applicability": kind, "condition": condition}
                for condition in dict.fromkeys(key(c) for c in conditions)
            )
    conn.execute(sa.delete(_conditions))
    if rows:
        conn.execute(sa.insert(_conditions), rows)


def upgrade() -> None:
    _rebuild(lambda text: " ".join(text.split()).casefold())


def downgrade() -> None:
    _rebuild(lambda text: text)
