"""Precedent search (R24, R26) as indexed queries over the registry's search tables.

Matching and ranking are :class:`~accord.precedents.query.PrecedentQuery`'s rules: the
dispute type, any given condition applicable, none of them inapplicable; authority first
(human_appeal > contextual_arbitration > direct_negotiation), then the most recent; bundles
a later bundle superseded after every bundle in force.

With conditions, the candidates are one range of ``precedent_conditions`` (type,
``applicable``, condition) per given condition's key, once per bundle; the inapplicable check
is a lookup by the primary key, and the candidates are sorted (superseded last). Without,
the ranked type index is walked in ranking order and stops at the limit: in-force bundles
first, then, only if the limit is not reached, superseded ones. Documents are read for the
returned ids only. Statements are built once, with bound parameters. PostgreSQL walks
the ranked index only when it has statistics for these tables:
``PrecedentStore`` refreshes them each time the registry doubles.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    Connection,
    Row,
    ScalarSelect,
    Select,
    bindparam,
    func,
    literal,
    select,
)

from accord.precedents.bundle import JurisprudenceBundle
from accord.precedents.precedent import Precedent
from accord.precedents.query import DEFAULT_LIMIT, PrecedentQuery
from accord.precedents.reading import superseding_ids, with_derived
from accord.precedents.refusals import as_precedent_error
from accord.precedents.rows import APPLICABLE, INAPPLICABLE
from accord.store.database import Database
from accord.store.tables import (
    precedent_bundles,
    precedent_conditions,
    precedent_supersessions,
    precedent_types,
)

_DISPUTE_TYPE: BindParameter[str] = bindparam("dispute_type")
_LIMIT: BindParameter[int] = bindparam("limit")


def _probe(*conditions: ColumnElement[bool]) -> ScalarSelect[int]:
    """``1`` when a row matches, else NULL: a correlated lookup run per row by its key
    (PostgreSQL turns ``NOT EXISTS`` into an anti join, which it may plan as a scan of the
    whole range for every row)."""
    return select(literal(1)).where(*conditions).limit(1).scalar_subquery()


def _superseded(jurisprudence_id: ColumnElement[str]) -> ScalarSelect[int]:
    return _probe(precedent_supersessions.c.superseded_id == jurisprudence_id)


def _by_type(*, superseded: bool) -> Select[str, int]:
    """Walks the ranked type index in ranking order; stops at the limit."""
    types = precedent_types.c
    edge = _superseded(types.jurisprudence_id)
    return (
        select(types.jurisprudence_id, func.coalesce(edge, 0))
        .where(
            types.dispute_type == _DISPUTE_TYPE,
            edge.is_not(None) if superseded else edge.is_(None),
        )
        .order_by(types.authority_rank.desc(), types.created_at.desc(), types.seq.desc())
        .limit(_LIMIT)
    )


def _by_conditions() -> Select[str, int]:
    """Bundles of the type listing any given condition as applicable (one index range per
    condition), none of them as inapplicable (a primary-key lookup); ranked, superseded last."""
    held = precedent_conditions.alias("held")
    barred = precedent_conditions.alias("barred")
    given: BindParameter[list[str]] = bindparam("conditions", expanding=True)
    superseded = func.coalesce(_superseded(held.c.jurisprudence_id), 0).label("superseded")
    excluded = _probe(
        barred.c.dispute_type == _DISPUTE_TYPE,
        barred.c.applicability == INAPPLICABLE,
        barred.c.condition.in_(given),
        barred.c.jurisprudence_id == held.c.jurisprudence_id,
    )
    return (
        select(held.c.jurisprudence_id, superseded)
        .where(
            held.c.dispute_type == _DISPUTE_TYPE,
            held.c.applicability == APPLICABLE,
            held.c.condition.in_(given),
            excluded.is_(None),
        )
        .group_by(
            held.c.jurisprudence_id, held.c.authority_rank, held.c.created_at, held.c.seq
        )
        .order_by(
            superseded, held.c.authority_rank.desc(), held.c.created_at.desc(), held.c.seq.desc()
        )
        .limit(_LIMIT)
    )


_BY_CONDITIONS = _by_conditions()
_IN_FORCE = _by_type(superseded=False)
_SUPERSEDED = _by_type(superseded=True)
_DOCUMENTS = select(precedent_bundles.c.jurisprudence_id, precedent_bundles.c.document).where(
    precedent_bundles.c.jurisprudence_id.in_(bindparam("ids", expanding=True))
)


class PrecedentSearch:
    """Find the precedents that apply to a dispute, best first."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def search(
        self,
        dispute_type: str,
        conditions: Iterable[str] = (),
        *,
        limit: int = DEFAULT_LIMIT,
    ) -> list[Precedent]:
        """Bundles applying to ``dispute_type`` under ``conditions``, ranked (see
        :class:`PrecedentQuery`); each carries its derived ``superseded_by``. Bad input is
        ``precedents.invalid`` naming the field and the rule."""
        with as_precedent_error("precedent search"):
            query = PrecedentQuery(
                dispute_type=dispute_type,  # validated here
                conditions=tuple(conditions),
                limit=limit,
            )
        return self.run(query)

    def run(self, query: PrecedentQuery) -> list[Precedent]:
        """The ranked matches of a validated query."""
        with self._db.read() as conn:
            ranked = _ranked_ids(conn, query)
            if not ranked:
                return []
            ids = [jid for jid, _ in ranked]
            found = conn.execute(_DOCUMENTS, {"ids": ids})
            documents = {row.jurisprudence_id: row.document for row in found}
            superseded = [jid for jid, flag in ranked if flag]
            successors = superseding_ids(conn, superseded) if superseded else {}
            bundles = [JurisprudenceBundle.model_validate_json(documents[jid]) for jid in ids]
            return with_derived(conn, bundles, successors)


def _ranked_ids(conn: Connection, query: PrecedentQuery) -> Sequence[Row[str, int]]:
    """(id, superseded) of the matches in ranking order, in-force bundles first (R26)."""
    params: dict[str, object] = {"dispute_type": query.dispute_type.value, "limit": query.limit}
    if query.conditions:
        params["conditions"] = list(query.conditions)
        return conn.execute(_BY_CONDITIONS, params).all()
    rows = conn.execute(_IN_FORCE, params).all()
    rest = query.limit - len(rows)
    if rest == 0:
        return rows
    return [*rows, *conn.execute(_SUPERSEDED, {**params, "limit": rest}).all()]
