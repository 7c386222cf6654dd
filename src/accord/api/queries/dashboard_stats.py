"""The reviewer dashboard's figures, read from the stores in a few bounded queries.

Cases by kind and by tier per day, the share that reached people per day, tokens per case,
each agent's win rate, and how long pending items have waited. Every query is bounded: at most
``MAX_DAYS`` days back, the ``MAX_TOKEN_CASES`` newest cases for tokens, the ``MAX_AGENTS``
busiest agents.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, case, func, select

from accord.approvals import ApprovalStatus
from accord.clock import isoformat
from accord.conflicts import Tier
from accord.errors import ValidationError
from accord.store import Database
from accord.store.tables import approval_items, case_parties, cases

MAX_DAYS = 90
MAX_TOKEN_CASES = 200
MAX_AGENTS = 12
QUEUE_AGE_BUCKETS: tuple[tuple[str, timedelta | None], ...] = (
    ("under 1 h", timedelta(hours=1)),
    ("1–4 h", timedelta(hours=4)),
    ("4–24 h", timedelta(hours=24)),
    ("over 1 day", None),
)
"""Each bucket's label and its upper bound (None: no bound)."""


@dataclass(frozen=True)
class DayCount:
    day: str
    """``YYYY-MM-DD`` (UTC)."""
    group: str
    count: int


@dataclass(frozen=True)
class DayRate:
    day: str
    cases: int
    escalated: int
    """Cases that reached people (the human-appeal tier)."""

    @property
    def rate(self) -> float:
        return self.escalated / self.cases if self.cases else 0.0


@dataclass(frozen=True)
class CaseTokens:
    case_id: str
    tokens: int
    """Input plus output tokens the case's model calls used."""


@dataclass(frozen=True)
class AgentRecord:
    agent_id: str
    won: int
    lost: int

    @property
    def win_rate(self) -> float:
        decided = self.won + self.lost
        return self.won / decided if decided else 0.0


@dataclass(frozen=True)
class DashboardStats:
    since: datetime
    by_kind: tuple[DayCount, ...]
    by_tier: tuple[DayCount, ...]
    escalation: tuple[DayRate, ...]
    tokens: tuple[CaseTokens, ...]
    agents: tuple[AgentRecord, ...]
    queue_age: tuple[tuple[str, int], ...]


def dashboard_stats(db: Database, now: datetime, *, days: int = 30) -> DashboardStats:
    """The figures for the ``days`` (1 to ``MAX_DAYS``) up to ``now``."""
    if not 1 <= days <= MAX_DAYS:
        raise ValidationError(
            f"days must be between 1 and {MAX_DAYS}",
            code="dashboard.bad_days",
            field="days",
            rule=f"1 <= days <= {MAX_DAYS}",
        )
    since = now - timedelta(days=days)
    with db.read() as conn:
        day = func.substr(cases.c.created_at, 1, 10).label("day")
        recent = cases.c.created_at >= isoformat(since)
        by_kind = [
            DayCount(str(r[0]), str(r[1] or "none"), int(r[2]))
            for r in conn.execute(
                select(day, cases.c.kind, func.count())
                .where(recent)
                .group_by(day, cases.c.kind)
                .order_by(day, cases.c.kind)
            )
        ]
        by_tier = [
            DayCount(str(r[0]), str(r[1]), int(r[2]))
            for r in conn.execute(
                select(day, cases.c.tier, func.count())
                .where(recent)
                .group_by(day, cases.c.tier)
                .order_by(day, cases.c.tier)
            )
        ]
        reached = func.sum(case((cases.c.tier == Tier.HUMAN_APPEAL.value, 1), else_=0))
        escalation = [
            DayRate(str(r[0]), int(r[1]), int(r[2] or 0))
            for r in conn.execute(
                select(day, func.count(), reached).where(recent).group_by(day).order_by(day)
            )
        ]
        documents = conn.execute(
            select(cases.c.case_id, cases.c.document)
            .where(recent)
            .order_by(cases.c.created_at.desc(), cases.c.case_id.desc())
            .limit(MAX_TOKEN_CASES)
        ).all()
        won = func.sum(case((case_parties.c.outcome == "won", 1), else_=0))
        lost = func.sum(case((case_parties.c.outcome == "lost", 1), else_=0))
        agents = [
            AgentRecord(str(r[0]), int(r[1] or 0), int(r[2] or 0))
            for r in conn.execute(
                select(case_parties.c.agent_id, won, lost)
                .where(case_parties.c.created_at >= isoformat(since))
                .group_by(case_parties.c.agent_id)
                .order_by((won + lost).desc(), case_parties.c.agent_id)
                .limit(MAX_AGENTS)
            )
        ]
        queue_age = _queue_age(conn, now)
    tokens = tuple(reversed([_tokens(str(cid), str(doc)) for cid, doc in documents]))
    return DashboardStats(
        since=since,
        by_kind=tuple(by_kind),
        by_tier=tuple(by_tier),
        escalation=tuple(escalation),
        tokens=tokens,
        agents=tuple(agents),
        queue_age=queue_age,
    )


def _tokens(case_id: str, document: str) -> CaseTokens:
    """Reads only the two counters (a stored case omits them when zero)."""
    parsed = json.loads(document)
    return CaseTokens(case_id, int(parsed.get("tokens_in", 0)) + int(parsed.get("tokens_out", 0)))


def _queue_age(conn: Connection, now: datetime) -> tuple[tuple[str, int], ...]:
    """Pending items per age bucket, youngest first."""
    created = approval_items.c.created_at
    pending = approval_items.c.status == ApprovalStatus.PENDING.value
    counts: list[tuple[str, int]] = []
    newer_than: str | None = None
    for label, bound in QUEUE_AGE_BUCKETS:
        query = select(func.count()).select_from(approval_items).where(pending)
        if bound is not None:
            query = query.where(created > isoformat(now - bound))
        if newer_than is not None:
            query = query.where(created <= newer_than)
        counts.append((label, int(conn.execute(query).scalar_one())))
        newer_than = isoformat(now - bound) if bound is not None else None
    return tuple(counts)
