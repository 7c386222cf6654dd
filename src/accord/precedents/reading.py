"""Reading bundles back with their derived ``superseded_by`` (one query per table)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, select

from accord.precedents.bundle import JurisprudenceBundle
from accord.precedents.precedent import Precedent
from accord.store.tables import precedent_bundles, precedent_supersessions


def load_precedents(conn: Connection, ids: Sequence[str]) -> dict[str, Precedent]:
    """The stored bundles among ``ids``, by id, each with the ids that superseded it (oldest
    first); ids not in the registry are absent."""
    if not ids:
        return {}
    documents = conn.execute(
        select(precedent_bundles.c.jurisprudence_id, precedent_bundles.c.document).where(
            precedent_bundles.c.jurisprudence_id.in_(ids)
        )
    ).all()
    edges = conn.execute(
        select(precedent_supersessions.c.superseded_id, precedent_supersessions.c.superseding_id)
        .where(precedent_supersessions.c.superseded_id.in_(ids))
        .order_by(precedent_supersessions.c.created_at, precedent_supersessions.c.superseding_id)
    ).all()
    superseded_by: dict[str, list[str]] = {}
    for old, new in edges:
        superseded_by.setdefault(old, []).append(new)
    return {
        jid: Precedent(
            bundle=JurisprudenceBundle.model_validate_json(document),
            superseded_by=tuple(superseded_by.get(jid, ())),
        )
        for jid, document in documents
    }
