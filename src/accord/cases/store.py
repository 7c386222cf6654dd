"""Persisting cases, parties and dissent; queries the CLI and the learning loop need."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, bindparam, func, select, tuple_

from accord.cases.case import Case, DissentRecord, SettleStatus
from accord.cases.shared_outputs import shared_dissent_outputs, shared_outputs
from accord.cases.signable import AnswerHashes, basis_points
from accord.clock import isoformat
from accord.errors import NotFound, ValidationError
from accord.store import Database
from accord.store.driver_query import DriverQuery
from accord.store.tables import case_parties, cases, dissents

VALID_STATUSES = tuple(s.value for s in SettleStatus)


# Built once: a decision reads and rewrites its case, and building these per call was a few %
# of it (issue 13).
_VOTE_COLUMNS = select(case_parties.c.case_id, case_parties.c.agent_id, case_parties.c.answer_key)
_VOTES = DriverQuery(
    _VOTE_COLUMNS.join(cases, cases.c.case_id == case_parties.c.case_id).where(
        cases.c.kind.is_not(None)
    )
)
#: Votes per page of :meth:`CaseStore.vote_pages` (a few milliseconds of reading on SQLite).
VOTE_PAGE = 2000
_VOTE_PAGE = DriverQuery(
    _VOTE_COLUMNS.join(cases, cases.c.case_id == case_parties.c.case_id)
    .where(cases.c.kind.is_not(None))
    .where(
        tuple_(case_parties.c.case_id, case_parties.c.agent_id)
        > tuple_(bindparam("after_case"), bindparam("after_agent"))
    )
    .order_by(case_parties.c.case_id, case_parties.c.agent_id)
    .limit(VOTE_PAGE)
)
_DOCUMENT = DriverQuery(select(cases.c.document).where(cases.c.case_id == bindparam("of_case")))
_DISSENT_IDS = DriverQuery(
    select(dissents.c.dissent_id).where(dissents.c.case_id == bindparam("of_case"))
)


def case_row(case: Case) -> dict[str, Any]:
    """The ``cases`` row: the queryable columns and the case document."""
    document = shared_outputs(case).model_dump_json(exclude_defaults=True)
    return {**case_columns(case), "document": document}


def case_columns(case: Case) -> dict[str, Any]:
    """The ``cases`` columns derived from the case (everything but the document)."""
    decision = case.decision
    classification = case.classification
    return {
        "case_id": case.case_id,
        "session_id": case.session_id,
        "subject": case.subject,
        "task_type": case.task_type,
        "status": case.status.value,
        "dcp_status": case.dcp_status.value,
        "kind": case.detection.kind.value if case.detection.kind else None,
        "severity": case.detection.severity.value if case.detection.severity else None,
        "dispute_type": classification.dispute_type.value if classification else None,
        "tier": case.tier.value,
        "winner": decision.winner if decision else None,
        "rung": decision.rung if decision else None,
        "confidence_bp": (basis_points(decision.confidence) or 0) if decision else 0,
        "escalated": case.status is SettleStatus.ESCALATED,
        "created_at": isoformat(case.created_at),
        "decided_at": isoformat(case.decided_at) if case.decided_at else None,
        "duration_ms": case.duration_ms,
    }


def party_rows(case: Case, answer_key: AnswerHashes | None = None) -> list[dict[str, Any]]:
    """Each agent's row; agents in one answer group share the group's answer key."""
    answer_key = answer_key or AnswerHashes()
    winners = set(case.decision.winners) if case.decision else set()
    group_of = {a: g.answer for g in case.detection.groups for a in g.agents}
    rows = []
    for p in case.positions:
        if case.status is SettleStatus.ESCALATED:
            outcome = "pending"
        elif case.status is SettleStatus.SETTLED:
            outcome = "won" if p.agent in winners else "lost"
        else:
            outcome = case.status.value
        rows.append(
            {
                "case_id": case.case_id,
                "agent_id": p.agent,
                "task_type": case.task_type,
                "answer_key": answer_key(group_of.get(p.agent, p.output)),
                "outcome": outcome,
                "created_at": isoformat(case.created_at),
            }
        )
    return rows


def dissent_row(record: DissentRecord) -> dict[str, Any]:
    return {
        "dissent_id": record.dissent_id,
        "case_id": record.case_id,
        "agent_id": record.agent_id,
        "task_type": record.task_type,
        "kind": record.kind,
        "severity": record.severity,
        "department": record.department,
        "strategy": record.strategy,
        "created_at": isoformat(record.created_at),
        "document": shared_dissent_outputs(record).model_dump_json(exclude_defaults=True),
    }


class CaseStore:
    """Reads and writes cases on one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def insert(
        self, conn: Connection, batch: Sequence[Case], answer_key: AnswerHashes | None = None
    ) -> None:
        """Insert cases with their parties and dissent inside the caller's transaction."""
        if not batch:
            return
        self.db.insert_rows(conn, cases, [case_row(c) for c in batch])
        parties = [row for c in batch for row in party_rows(c, answer_key)]
        self.db.insert_rows(conn, case_parties, parties)
        self.db.insert_rows(conn, dissents, [dissent_row(d) for c in batch for d in c.dissent])

    def update(self, conn: Connection, case: Case) -> None:
        """Rewrite a case after a later decision (human appeal) in the caller's transaction."""
        # driver SQL rendered once (SQLAlchemy's update() cost ~15 % of a decision, issue 13)
        self.db.update_rows(conn, cases, ("case_id",), [case_row(case)])
        self.db.update_rows(
            conn,
            case_parties,
            ("case_id", "agent_id"),
            [
                {"case_id": p["case_id"], "agent_id": p["agent_id"], "outcome": p["outcome"]}
                for p in party_rows(case)
            ],
        )
        known = set(_DISSENT_IDS.scalars(conn, {"of_case": case.case_id}))
        self.db.insert_rows(
            conn, dissents, [dissent_row(d) for d in case.dissent if d.dissent_id not in known]
        )

    def get_within(self, conn: Connection, case_id: str) -> Case:
        document = _DOCUMENT.scalar(conn, {"of_case": case_id})
        if document is None:
            raise NotFound(f"no case {case_id}", code="cases.not_found", case_id=case_id)
        return Case.model_validate_json(document)

    def get(self, case_id: str) -> Case:
        with self.db.read() as conn:
            document = _DOCUMENT.scalar(conn, {"of_case": case_id})
        if document is None:
            raise NotFound(f"no case {case_id}", code="cases.not_found", case_id=case_id)
        return Case.model_validate_json(document)

    def find(
        self,
        *,
        status: str | None = None,
        session_id: str | None = None,
        limit: int = 50,
    ) -> list[dict[str, Any]]:
        """Newest first, as flat rows (without the document)."""
        if status is not None and status not in VALID_STATUSES:
            raise ValidationError(
                f"unknown status {status!r}; valid: {', '.join(VALID_STATUSES)}",
                code="cases.bad_status",
                field="status",
                rule=f"one of {VALID_STATUSES}",
            )
        columns = [c for c in cases.c if c.name != "document"]
        query = select(*columns).order_by(cases.c.created_at.desc()).limit(limit)
        if status is not None:
            query = query.where(cases.c.status == status)
        if session_id is not None:
            query = query.where(cases.c.session_id == session_id)
        with self.db.read() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def count_by_status(self) -> dict[str, int]:
        with self.db.read() as conn:
            rows = conn.execute(select(cases.c.status, func.count()).group_by(cases.c.status))
            return {str(r[0]): int(r[1]) for r in rows}

    def total(self) -> int:
        with self.db.read() as conn:
            return int(conn.execute(select(func.count()).select_from(cases)).scalar_one())

    def iter_documents(self, batch: int = 1000) -> Iterator[Case]:
        """Every case, oldest first, streamed in batches."""
        last = ("", "")
        while True:
            with self.db.read() as conn:
                rows = conn.execute(
                    select(cases.c.case_id, cases.c.document, cases.c.created_at)
                    .where(tuple_(cases.c.created_at, cases.c.case_id) > last)
                    .order_by(cases.c.created_at, cases.c.case_id)
                    .limit(batch)
                ).all()
            if not rows:
                return
            for row in rows:
                yield Case.model_validate_json(row.document)
            last = (rows[-1].created_at, rows[-1].case_id)

    def votes(self) -> list[tuple[str, str, str]]:
        """(case, agent, answer key) for every real conflict, for reliability estimation."""
        with self.db.read() as conn:  # every vote there is: a long read, on the driver
            return _VOTES.tuples(conn, {})

    def vote_pages(self) -> Iterator[list[tuple[str, str, str]]]:
        """:meth:`votes` in pages of up to ``VOTE_PAGE`` votes, each its own short read, in
        (case, agent) order: a caller on an event loop can let other work run between pages.
        A case written meanwhile may or may not be in a later page."""
        after = ("", "")
        while True:
            with self.db.read() as conn:
                page = _VOTE_PAGE.tuples(conn, {"after_case": after[0], "after_agent": after[1]})
            if page:
                yield page
            if len(page) < VOTE_PAGE:
                return
            after = (page[-1][0], page[-1][1])

    def dissent(self, case_id: str) -> list[DissentRecord]:
        with self.db.read() as conn:
            rows = conn.execute(
                select(dissents.c.document).where(dissents.c.case_id == case_id)
            ).scalars()
            return [DissentRecord.model_validate_json(d) for d in rows]
