"""Precedent search (R24, R26) as indexed queries over the registry's search tables.

Matching and ranking are :class:`~accord.precedents.query.PrecedentQuery`'s rules: the
dispute type, every given condition applicable, none inapplicable; authority first
(human_appeal > contextual_arbitration > direct_negotiation), then the most recent; bundles a
later bundle superseded after every bundle in force. With conditions the candidates come from
the conditions index (only bundles listing a given condition are read); without, the type
index is read in ranking order and stops at the limit, in-force bundles first, then
superseded ones.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, Select, and_, case, exists, func, select

from accord.precedents.precedent import Precedent
from accord.precedents.query import DEFAULT_LIMIT, PrecedentQuery
from accord.precedents.reading import load_precedents
from accord.precedents.refusals import as_precedent_error
from accord.precedents.rows import APPLICABLE, INAPPLICABLE
from accord.store.database import Database
from accord.store.tables import precedent_conditions, precedent_supersessions, precedent_types

_types = precedent_types.c
_edges = precedent_supersessions.c


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
            ids = _matching_ids(conn, query)
            found = load_precedents(conn, ids)
        return [found[jid] for jid in ids]


def _matching_ids(conn: Connection, query: PrecedentQuery) -> list[str]:
    if query.conditions:
        return list(conn.execute(_by_conditions(query)).scalars())
    in_force = list(conn.execute(_by_type(query, superseded=False, limit=query.limit)).scalars())
    rest = query.limit - len(in_force)
    if rest == 0:
        return in_force
    return in_force + list(conn.execute(_by_type(query, superseded=True, limit=rest)).scalars())


def _by_type(query: PrecedentQuery, *, superseded: bool, limit: int) -> Select[str]:
    was_superseded = exists().where(_edges.superseded_id == _types.jurisprudence_id)
    return (
        select(_types.jurisprudence_id)
        .where(
            _types.dispute_type == query.dispute_type.value,
            was_superseded if superseded else ~was_superseded,
        )
        .order_by(_types.authority_rank.desc(), _types.created_at.desc(), _types.seq.desc())
        .limit(limit)
    )


def _by_conditions(query: PrecedentQuery) -> Select[str]:
    wanted = list(query.conditions)
    held = precedent_conditions.alias("held")
    barred = precedent_conditions.alias("barred")
    excluded = exists().where(
        barred.c.jurisprudence_id == _types.jurisprudence_id,
        barred.c.applicability == INAPPLICABLE,
        barred.c.condition.in_(wanted),
    )
    candidates = (
        select(_types.jurisprudence_id, _types.authority_rank, _types.created_at, _types.seq)
        .select_from(held)
        .join(
            precedent_types,
            and_(
                _types.jurisprudence_id == held.c.jurisprudence_id,
                _types.dispute_type == query.dispute_type.value,
            ),
        )
        .where(held.c.applicability == APPLICABLE, held.c.condition.in_(wanted), ~excluded)
        .group_by(_types.jurisprudence_id, _types.authority_rank, _types.created_at, _types.seq)
        .having(func.count() == len(wanted))
        .subquery("candidates")
    )
    found = candidates.c
    last_if_superseded = case(
        (exists().where(_edges.superseded_id == found.jurisprudence_id), 1), else_=0
    )
    return (
        select(found.jurisprudence_id)
        .order_by(
            last_if_superseded,
            found.authority_rank.desc(),
            found.created_at.desc(),
            found.seq.desc(),
        )
        .limit(query.limit)
    )
