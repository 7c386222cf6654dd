"""How many stored DCP-07 disputes there are by type, status and tier (for ``/metrics``)."""

from __future__ import annotations

from sqlalchemy import func, select

from accord.store import Database
from accord.store.tables import dcp_disputes


def dispute_counts(db: Database) -> list[tuple[str, str, str, int]]:
    """(dispute_type, status, tier, count) over every stored dispute."""
    t = dcp_disputes.c
    query = select(t.dispute_type, t.status, t.tier, func.count()).group_by(
        t.dispute_type, t.status, t.tier
    )
    with db.read() as conn:
        return [(str(r[0]), str(r[1]), str(r[2]), int(r[3])) for r in conn.execute(query)]
