"""Dissent records for organisational learning: query, export, and who dissents (and is right).

A decision counts as **later overturned** when a later settled case on the same subject and
task type chose the answer the dissenting agent had given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from typing import IO, Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import select

from accord.cases.case import Case, DissentRecord, SettleStatus
from accord.cases.signable import answer_key
from accord.clock import isoformat
from accord.store import Database
from accord.store.tables import cases, dissents


class Overturned(BaseModel):
    """A dissent that a later decision vindicated."""

    model_config = ConfigDict(frozen=True)

    dissent_id: str
    case_id: str
    agent_id: str
    later_case_id: str


class DissentSummary(BaseModel):
    """Who dissents most, by strategy and kind, and which decisions were later overturned."""

    model_config = ConfigDict(frozen=True)

    total: int
    by_agent: dict[str, int]
    by_strategy: dict[str, int]
    by_kind: dict[str, int]
    overturned: list[Overturned]


class DissentStore:
    """Reads dissent records (they are written with their case by the settle service)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def query(
        self,
        *,
        agent: str | None = None,
        department: str | None = None,
        kind: str | None = None,
        strategy: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        text: str | None = None,
        limit: int | None = None,
    ) -> list[DissentRecord]:
        """Dissent matching every given filter, oldest first (``text`` searches the record)."""
        return list(
            self.iter(
                agent=agent,
                department=department,
                kind=kind,
                strategy=strategy,
                since=since,
                until=until,
                text=text,
                limit=limit,
            )
        )

    def iter(self, **filters: Any) -> Iterator[DissentRecord]:
        query = select(dissents.c.document).order_by(dissents.c.created_at, dissents.c.dissent_id)
        for column in ("agent", "department", "kind", "strategy"):
            value = filters.get(column)
            if value is not None:
                name = "agent_id" if column == "agent" else column
                query = query.where(dissents.c[name] == value)
        if filters.get("since") is not None:
            query = query.where(dissents.c.created_at >= isoformat(filters["since"]))
        if filters.get("until") is not None:
            query = query.where(dissents.c.created_at < isoformat(filters["until"]))
        text = filters.get("text")
        if text:
            query = query.where(dissents.c.document.contains(text, autoescape=True))
        if filters.get("limit") is not None:
            query = query.limit(filters["limit"])
        with self.db.read() as conn:
            documents = list(conn.execute(query).scalars())
        for document in documents:
            yield DissentRecord.model_validate_json(document)

    def export_jsonl(self, out: IO[str], **filters: Any) -> int:
        """Write matching records as JSON lines; returns how many."""
        count = 0
        for record in self.iter(**filters):
            out.write(record.model_dump_json() + "\n")
            count += 1
        return count

    def summary(self) -> DissentSummary:
        records = self.query()
        return DissentSummary(
            total=len(records),
            by_agent=dict(Counter(r.agent_id for r in records).most_common()),
            by_strategy=dict(Counter(r.strategy or "-" for r in records).most_common()),
            by_kind=dict(Counter(r.kind or "-" for r in records).most_common()),
            overturned=self._overturned(records),
        )

    def _overturned(self, records: list[DissentRecord]) -> list[Overturned]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(
                    cases.c.case_id,
                    cases.c.subject,
                    cases.c.task_type,
                    cases.c.created_at,
                    cases.c.document,
                )
                .where(cases.c.status == SettleStatus.SETTLED.value)
                .order_by(cases.c.created_at)
            ).all()
        later: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
        for row in rows:
            decision = Case.model_validate_json(row.document).decision
            if decision is not None:
                later.setdefault((row.subject, row.task_type), []).append(
                    (row.created_at, row.case_id, answer_key(decision.answer))
                )
        out = []
        for record in records:
            mine = answer_key(record.position.output)
            stamp = isoformat(record.created_at)
            for created, case_id, key in later.get((record.subject, record.task_type), []):
                if created > stamp and case_id != record.case_id and key == mine:
                    out.append(
                        Overturned(
                            dissent_id=record.dissent_id,
                            case_id=record.case_id,
                            agent_id=record.agent_id,
                            later_case_id=case_id,
                        )
                    )
                    break
        return out
