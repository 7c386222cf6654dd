"""Reading bundles back with their derived ``superseded_by``."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, select

from accord.precedents.bundle import JurisprudenceBundle
from accord.precedents.precedent import Precedent
from accord.store.tables import precedent_bundles, precedent_supersessions

_edges = precedent_supersessions.c


def superseding_ids(conn: Connection, ids: Sequence[str]) -> dict[str, list[str]]:
    """For each of ``ids`` a later bundle superseded, the superseding ids, oldest first."""
    edges = conn.execute(
        select(_edges.superseded_id, _edges.superseding_id)
        .where(_edges.superseded_id.in_(ids))
        .order_by(_edges.created_at, _edges.superseding_id)
    ).all()
    found: dict[str, list[str]] = {}
    for old, new in edges:
        found.setdefault(old, []).append(new)
    return found


def load_precedents(conn: Connection, ids: Sequence[str]) -> dict[str, Precedent]:
    """The stored bundles among ``ids``, by id, each with the ids that superseded it; ids
    not in the registry are absent."""
    if not ids:
        return {}
    documents = conn.execute(
        select(precedent_bundles.c.jurisprudence_id, precedent_bundles.c.document).where(
            precedent_bundles.c.jurisprudence_id.in_(ids)
        )
    ).all()
    successors = superseding_ids(conn, ids)
    return {
        jid: Precedent(
            bundle=JurisprudenceBundle.model_validate_json(document),
            superseded_by=tuple(successors.get(jid, ())),
        )
        for jid, document in documents
    }
