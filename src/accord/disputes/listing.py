"""Listing disputes: filters on status, type, severity, tier and party, keyset paging.

Disputes list in the order they were opened (the ledger entry that opened each); a page
continues after the last dispute of the previous one (``after``, its id), so pages never skip
or repeat a dispute that was opened or changed in between.
"""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Connection, func, select

from accord.conflicts import DisputeType, Severity, Tier
from accord.dcp07.fields import DisputeId, Identifier
from accord.dcp07.refusal import from_pydantic
from accord.dcp07.statuses import FINAL, CaseStatus
from accord.disputes.views import DisputePage, DisputeSummary
from accord.store.tables import dcp_dispute_parties, dcp_disputes

DEFAULT_PAGE: Final = 50
MAX_PAGE: Final = 500


class DisputeQuery(BaseModel):
    """Which disputes to list (every given filter must hold) and how many."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: CaseStatus | None = None
    dispute_type: DisputeType | None = None
    severity: Severity | None = None
    tier: Tier | None = None
    party: Identifier | None = None
    """Disputes this agent is a party to (complainant or respondent)."""
    after: DisputeId | None = None
    limit: Annotated[int, Field(ge=1, le=MAX_PAGE, strict=True)] = DEFAULT_PAGE

    @classmethod
    def read(cls, **given: object) -> DisputeQuery:
        """The query; refused naming the first bad filter (R6 statuses, R1 types …)."""
        try:
            return cls.model_validate({k: v for k, v in given.items() if v is not None})
        except PydanticValidationError as exc:
            raise from_pydantic(exc, requirement="R5", record="DisputeQuery") from None


def list_disputes(conn: Connection, query: DisputeQuery) -> DisputePage:
    """One page of the disputes ``query`` selects, oldest first."""
    t = dcp_disputes.c
    statement = select(
        t.dispute_id,
        t.dispute_type,
        t.severity,
        t.status,
        t.tier,
        t.complainant_id,
        t.opened_at,
        t.updated_at,
        t.escalation_deadline,
    )
    if query.party is not None:
        p = dcp_dispute_parties.c
        statement = statement.join(dcp_dispute_parties, p.dispute_id == t.dispute_id).where(
            p.agent_id == query.party
        )
    for column, value in (
        (t.status, query.status),
        (t.dispute_type, query.dispute_type),
        (t.severity, query.severity),
        (t.tier, query.tier),
    ):
        if value is not None:
            statement = statement.where(column == value.value)
    if query.after is not None:
        last = (
            select(t.opened_seq).where(t.dispute_id == query.after).scalar_subquery()
        )
        statement = statement.where(t.opened_seq > func.coalesce(last, 2**62))
    rows = conn.execute(statement.order_by(t.opened_seq).limit(query.limit + 1)).all()
    respondents = _respondents(conn, [r.dispute_id for r in rows[: query.limit]])
    items = tuple(
        DisputeSummary(
            dispute_id=r.dispute_id,
            dispute_type=r.dispute_type,
            severity=r.severity,
            status=r.status,
            tier=r.tier,
            complainant=r.complainant_id,
            respondents=respondents.get(r.dispute_id, ()),
            opened_at=r.opened_at,
            updated_at=r.updated_at,
            escalation_deadline=r.escalation_deadline,
        )
        for r in rows[: query.limit]
    )
    more = len(rows) > query.limit
    return DisputePage(items=items, next_after=items[-1].dispute_id if more else None)


def _respondents(conn: Connection, dispute_ids: list[str]) -> dict[str, tuple[str, ...]]:
    """Each listed dispute's respondents (agent ids, sorted), in one query."""
    if not dispute_ids:
        return {}
    p = dcp_dispute_parties.c
    found: dict[str, list[str]] = {}
    for dispute_id, agent_id in conn.execute(
        select(p.dispute_id, p.agent_id)
        .where(p.dispute_id.in_(dispute_ids), p.role == "respondent")
        .order_by(p.dispute_id, p.agent_id)
    ):
        found.setdefault(dispute_id, []).append(agent_id)
    return {dispute_id: tuple(agents) for dispute_id, agents in found.items()}


def active_between(conn: Connection, a: str, b: str) -> list[str]:
    """Ids of the disputes still active (not resolved, withdrawn or abandoned) to which both
    ``a`` and ``b`` are parties, oldest first (R11, R32: a panel member has none with a party)."""
    first, second = dcp_dispute_parties.alias("first"), dcp_dispute_parties.alias("second")
    t = dcp_disputes.c
    rows = conn.execute(
        select(t.dispute_id)
        .join(first, first.c.dispute_id == t.dispute_id)
        .join(second, second.c.dispute_id == t.dispute_id)
        .where(
            first.c.agent_id == a,
            second.c.agent_id == b,
            t.status.not_in(sorted(s.value for s in FINAL)),
        )
        .order_by(t.opened_seq)
    ).scalars()
    return list(rows)
