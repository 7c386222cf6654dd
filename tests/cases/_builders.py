"""Builders for the disputes room's tests: positions, requests and pure ``decide`` calls."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select

from accord.cases import Case, SettleRequest, TriageSettings
from accord.cases.triage import TriageInput, triage
from accord.conflicts import DecisionTable, Position
from accord.ladder import LadderSettings, SourceFinding, VerifierRegistry
from accord.org import OrgChart
from accord.store import Database
from accord.store.tables import case_parties, cases, dissents, ledger_entries

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
SUBJECT = "invoice INV-7 total"
TASK = "invoice.total"


def pos(agent: str, output: Any, confidence: float | None = None, **fields: Any) -> Position:
    """A position of ``agent`` answering ``output`` with an optional confidence."""
    return Position(agent=agent, output=output, confidence=confidence, **fields)


def request(*positions: Position | Mapping[str, Any], **fields: Any) -> SettleRequest:
    """A settle request on the default subject and task type."""
    return SettleRequest(
        subject=fields.pop("subject", SUBJECT),
        positions=list(positions),
        task_type=fields.pop("task_type", TASK),
        **fields,
    )


class SourceOfTruth:
    """A verifier that knows one answer for every subject."""

    def __init__(self, answer: Any, source: str = "erp") -> None:
        self.answer = answer
        self.source = source

    def lookup(self, subject: str, task_type: str, answers: Sequence[Any]) -> SourceFinding:
        return SourceFinding(answer=self.answer, source=self.source)


def verifiers(answer: Any | None = None, task_type: str = TASK) -> VerifierRegistry:
    """A registry with a source of truth for ``task_type`` (empty when ``answer`` is None)."""
    registry = VerifierRegistry()
    if answer is not None:
        registry.register(task_type, SourceOfTruth(answer))
    return registry


def decide_case(
    positions: Sequence[Position],
    *,
    table: DecisionTable | None = None,
    ladder: LadderSettings | None = None,
    org: OrgChart | None = None,
    truth: Any | None = None,
    weights: Mapping[str, float] | None = None,
    session_id: str | None = None,
    duration_ms: int = 0,
) -> Case:
    """The case ``decide`` makes of ``positions`` (pure, no database)."""
    settings = TriageSettings(table=table or DecisionTable(), ladder=ladder or LadderSettings())
    item = TriageInput(
        subject=SUBJECT,
        task_type=TASK,
        session_id=session_id,
        positions=tuple(positions),
        created_at=NOW,
    )
    return triage(
        item,
        settings,
        org=org,
        verifiers=verifiers(truth),
        weights=weights or {},
        semantic=None,
        decided_at=NOW,
        duration_ms=duration_ms,
    ).case


def row_counts(db: Database) -> dict[str, int]:
    """How many rows each table a settle writes to holds."""
    with db.read() as conn:
        return {
            table.name: int(conn.execute(select(func.count()).select_from(table)).scalar_one())
            for table in (cases, case_parties, dissents, ledger_entries)
        }


NOTHING_WRITTEN = {"cases": 0, "case_parties": 0, "dissents": 0, "ledger_entries": 0}
