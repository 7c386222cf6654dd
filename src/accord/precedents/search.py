"""Precedent search (R24, R26) as indexed queries over the registry's search tables.

Matching and ranking are :class:`~accord.precedents.query.PrecedentQuery`'s rules: the
dispute type, every given condition applicable, none inapplicable; authority first
(human_appeal > contextual_arbitration > direct_negotiation), then the most recent; bundles a
later bundle superseded after every bundle in force.

With conditions, the candidates are the primary-key range of ``precedent_conditions`` for
(type, ``applicable``, first condition); each other condition, and each ``inapplicable``
one, is a lookup by the whole primary key — a plan that does not depend on statistics.
Without, the ranked type index is read in order and stops at the limit: bundles in force
first, then superseded ones. The statements are built once (per number of conditions), with
bound parameters, and return the signed documents directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from sqlalchemy import (
    BindParameter,
    Connection,
    Exists,
    Row,
    Select,
    bindparam,
    case,
    exists,
    select,
)

from accord.precedents.bundle import JurisprudenceBundle
from accord.precedents.precedent import Precedent
from accord.precedents.query import DEFAULT_LIMIT, PrecedentQuery
from accord.precedents.reading import superseding_ids
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


def _by_type(*, superseded: bool) -> Select[str, str, int]:
    types = precedent_types.c
    edge = exists().where(precedent_supersessions.c.superseded_id == types.jurisprudence_id)
    return (
        select(
            types.jurisprudence_id,
            precedent_bundles.c.document,
            case((edge, 1), else_=0),
        )
        .join(
            precedent_bundles,
            precedent_bundles.c.jurisprudence_id == types.jurisprudence_id,
        )
        .where(types.dispute_type == _DISPUTE_TYPE, edge if superseded else ~edge)
        .order_by(types.authority_rank.desc(), types.created_at.desc(), types.seq.desc())
        .limit(_LIMIT)
    )


def _by_conditions(count: int) -> Select[str, str, int]:
    """Driven by the first condition's range of ``precedent_conditions``; every other check
    is a lookup by the whole primary key, so the plan does not depend on statistics."""
    held = precedent_conditions.alias("held")

    def listed(index: int, applicability: str) -> Exists:
        other = precedent_conditions.alias(f"{applicability}_{index}")
        return exists().where(
            other.c.dispute_type == _DISPUTE_TYPE,
            other.c.applicability == applicability,
            other.c.condition == bindparam(f"c{index}"),
            other.c.jurisprudence_id == held.c.jurisprudence_id,
        )

    edge = exists().where(precedent_supersessions.c.superseded_id == held.c.jurisprudence_id)
    superseded = case((edge, 1), else_=0)
    return (
        select(held.c.jurisprudence_id, precedent_bundles.c.document, superseded)
        .join(
            precedent_bundles,
            precedent_bundles.c.jurisprudence_id == held.c.jurisprudence_id,
        )
        .where(
            held.c.dispute_type == _DISPUTE_TYPE,
            held.c.applicability == APPLICABLE,
            held.c.condition == bindparam("c0"),
            *(listed(i, APPLICABLE) for i in range(1, count)),
            *(~listed(i, INAPPLICABLE) for i in range(count)),
        )
        .order_by(
            superseded,
            held.c.authority_rank.desc(),
            held.c.created_at.desc(),
            held.c.seq.desc(),
        )
        .limit(_LIMIT)
    )


@cache
def _with_conditions(count: int) -> Select[str, str, int]:
    """The statement for ``count`` conditions (built once per count, at most 64)."""
    return _by_conditions(count)


_IN_FORCE = _by_type(superseded=False)
_SUPERSEDED = _by_type(superseded=True)


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
            rows = _ranked_rows(conn, query)
            superseded = [row[0] for row in rows if row[2]]
            successors = superseding_ids(conn, superseded) if superseded else {}
        return [
            Precedent(
                bundle=JurisprudenceBundle.model_validate_json(document),
                superseded_by=tuple(successors.get(jid, ())),
            )
            for jid, document, _ in rows
        ]


def _ranked_rows(conn: Connection, query: PrecedentQuery) -> Sequence[Row[str, str, int]]:
    params: dict[str, object] = {
        "dispute_type": query.dispute_type.value,
        "limit": query.limit,
    }
    if query.conditions:
        params.update({f"c{i}": condition for i, condition in enumerate(query.conditions)})
        return conn.execute(_with_conditions(len(query.conditions)), params).all()
    in_force = conn.execute(_IN_FORCE, params).all()
    rest = query.limit - len(in_force)
    if rest == 0:
        return in_force
    return [*in_force, *conn.execute(_SUPERSEDED, {**params, "limit": rest}).all()]
