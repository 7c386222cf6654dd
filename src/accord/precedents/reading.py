"""Reading bundles back with their derived ``superseded_by``."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, bindparam, select

from accord.precedents.bundle import JurisprudenceBundle, ObjectionReference
from accord.precedents.precedent import Precedent
from accord.store.tables import dispute_objections, precedent_bundles, precedent_supersessions

_edges = precedent_supersessions.c
_objections = dispute_objections.c


_FILED_OBJECTIONS = (
    select(
        _objections.resolution_id,
        _objections.objection_id,
        _objections.objection_type,
        _objections.status,
        _objections.record_hash,
    )
    .where(_objections.resolution_id.in_(bindparam("ids", expanding=True)))
    .order_by(_objections.filed_at, _objections.objection_id)
)
"""Built once: a search pays for executing it, not for building it."""


def filed_objections(
    conn: Connection, resolution_ids: Sequence[str]
) -> dict[str, list[ObjectionReference]]:
    """For each of ``resolution_ids`` with objections filed against it (R28), their
    references (id, type, status, signed record hash), oldest first."""
    if not resolution_ids:
        return {}
    rows = conn.execute(_FILED_OBJECTIONS, {"ids": sorted(set(resolution_ids))}).all()
    found: dict[str, list[ObjectionReference]] = {}
    for resolution_id, objection_id, kind, status, digest in rows:
        found.setdefault(resolution_id, []).append(
            ObjectionReference(
                objection_id=objection_id, objection_type=kind, status=status, record_hash=digest
            )
        )
    return found


def with_derived(
    conn: Connection,
    bundles: Sequence[JurisprudenceBundle],
    successors: dict[str, list[str]],
) -> list[Precedent]:
    """``bundles`` as precedents with what was derived since they were signed."""
    objections = filed_objections(conn, [b.resolution_id for b in bundles])
    return [
        Precedent(
            bundle=bundle,
            superseded_by=tuple(successors.get(bundle.jurisprudence_id, ())),
            filed_objections=tuple(objections.get(bundle.resolution_id, ())),
        )
        for bundle in bundles
    ]


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
    """The stored bundles among ``ids``, by id, each with the ids that superseded it and the
    objections filed since; ids not in the registry are absent."""
    if not ids:
        return {}
    documents = conn.execute(
        select(precedent_bundles.c.jurisprudence_id, precedent_bundles.c.document).where(
            precedent_bundles.c.jurisprudence_id.in_(ids)
        )
    ).all()
    successors = superseding_ids(conn, ids)
    bundles = [JurisprudenceBundle.model_validate_json(document) for _, document in documents]
    return {p.jurisprudence_id: p for p in with_derived(conn, bundles, successors)}
