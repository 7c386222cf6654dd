"""Precedent search (R24, R26) as indexed queries over the registry's search tables.

Matching and ranking are :class:`~accord.precedents.query.PrecedentQuery`'s rules: the
dispute type, any given condition applicable (or the bundle lists none), none of them
inapplicable; authority first (human_appeal > contextual_arbitration > direct_negotiation),
then the most recent; bundles a later bundle superseded after every bundle in force.

With conditions, the candidates are the type's rows of ``precedent_types``; the applicable
and inapplicable checks are lookups by the leading primary key columns of
``precedent_conditions``, and the candidates are sorted (superseded last). Without,
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
    or_,
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


def _listed(applicability: str, *more: ColumnElement[bool]) -> ScalarSelect[int]:
    """Whether the candidate lists a condition as ``applicability`` (one of the given ones,
    with ``more``): a lookup by the primary key's leading columns."""
    held = precedent_conditions.c
    return _probe(
        held.dispute_type == _DISPUTE_TYPE,
        held.applicability == applicability,
        held.jurisprudence_id == precedent_types.c.jurisprudence_id,
        *more,
    )


def _by_conditions() -> Select[str, int]:
    """Bundles of the type listing any given condition as applicable, or none at all, and
    none of them as inapplicable; ranked, superseded last."""
    types = precedent_types.c
    given = precedent_conditions.c.condition.in_(bindparam("conditions", expanding=True))
    superseded = func.coalesce(_superseded(types.jurisprudence_id), 0)
    return (
        select(types.jurisprudence_id, superseded)
        .where(
            types.dispute_type == _DISPUTE_TYPE,
            or_(
                _listed(APPLICABLE, given).is_not(None),
                _listed(APPLICABLE).is_(None),
            ),
            _listed(INAPPLICABLE, given).is_(None),
        )
        .order_by(
            superseded, types.authority_rank.desc(), types.created_at.desc(), types.seq.desc()
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
