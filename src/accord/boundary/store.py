"""Persisting boundaries and probe attempts; every write is signed into the ledger in the same
transaction (events ``boundary_recorded``, ``boundary_probe_attempted``,
``boundary_resolved``), so a row never exists without its ledger entry, nor the reverse."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sqlalchemy import Connection, select, update

from accord.boundary.model import (
    Boundary,
    BoundaryStatus,
    ProbeAttempt,
    ResolutionReceipt,
)
from accord.clock import isoformat
from accord.errors import NotFound, ValidationError
from accord.store import Database
from accord.store.tables import boundaries, boundary_attempts
from accord.values import revised

LedgerAppend = Callable[[Connection, list[tuple[str, dict[str, Any]]]], object]
"""Signs events inside the caller's transaction, e.g. ``Ledger.append_within``."""


def boundary_row(boundary: Boundary) -> dict[str, Any]:
    return {
        "boundary_id": boundary.boundary_id,
        "session_id": boundary.session_id,
        "case_id": boundary.case_id,
        "task_type": boundary.task_type,
        "status": boundary.status,
        "digest": boundary.digest,
        "size_bytes": boundary.size_bytes,
        "transcript_bytes": boundary.transcript_bytes,
        "created_at": isoformat(boundary.created_at),
        "resolved_at": None,
        "document": boundary.model_dump_json(),
    }


def attempt_row(attempt: ProbeAttempt) -> dict[str, Any]:
    return {
        "attempt_id": attempt.attempt_id,
        "boundary_id": attempt.boundary_id,
        "probe": attempt.probe,
        "outcome": attempt.outcome,
        "attempted_at": isoformat(attempt.attempted_at),
        "receipt_hash": attempt.receipt_hash,
        "document": attempt.model_dump_json(),
    }


def recorded_event(boundary: Boundary) -> tuple[str, dict[str, Any]]:
    return ("boundary_recorded", {**boundary.record(), "size_bytes": boundary.size_bytes})


def attempt_event(attempt: ProbeAttempt) -> tuple[str, dict[str, Any]]:
    return ("boundary_probe_attempted", {**attempt.record(), "receipt_hash": attempt.receipt_hash})


class BoundaryStore:
    """Boundaries and attempts on ``db``; events go through ``ledger_append``."""

    def __init__(self, db: Database, ledger_append: LedgerAppend) -> None:
        self.db = db
        self.ledger_append = ledger_append

    # --- writing ------------------------------------------------------------------------

    def save_within(self, conn: Connection, items: Sequence[Boundary]) -> None:
        """Insert ``items`` and sign one ``boundary_recorded`` event each, in ``conn``'s
        transaction (opened with ``db.write()``)."""
        if not items:
            return
        self.db.insert_rows(conn, boundaries, [boundary_row(b) for b in items])
        self.ledger_append(conn, [recorded_event(b) for b in items])

    def save(self, items: Sequence[Boundary]) -> None:
        with self.db.write() as conn:
            self.save_within(conn, items)

    def record_attempt_within(self, conn: Connection, attempt: ProbeAttempt) -> None:
        """Insert the attempt's receipt and sign it (``boundary_probe_attempted``)."""
        self._check_sealed(attempt)
        self.db.insert_rows(conn, boundary_attempts, [attempt_row(attempt)])
        self.ledger_append(conn, [attempt_event(attempt)])

    def record_attempt(self, attempt: ProbeAttempt) -> None:
        """:meth:`record_attempt_within` in its own transaction; the boundary is untouched."""
        with self.db.write() as conn:
            self.get_within(conn, attempt.boundary_id)
            self.record_attempt_within(conn, attempt)

    def mark_resolved_within(
        self, conn: Connection, receipt: ResolutionReceipt, attempt: ProbeAttempt
    ) -> Boundary:
        """Move the boundary from ``pending`` to ``resolved`` (compare-and-set), store the
        winning attempt and sign ``boundary_probe_attempted`` and ``boundary_resolved``.

        Raises ``boundary.not_pending`` when another successor resolved it first.
        """
        if not receipt.receipt_hash:
            raise ValidationError(
                "a resolution receipt is sealed before it is recorded",
                code="boundary.unsealed_receipt",
                field="receipt_hash",
                rule="call receipt.sealed() first",
            )
        current = self.get_within(conn, receipt.boundary_id)
        resolution = {**receipt.record(), "receipt_hash": receipt.receipt_hash}
        resolved = revised(current, status="resolved", resolution=resolution)
        result = conn.execute(
            update(boundaries)
            .where(boundaries.c.boundary_id == receipt.boundary_id)
            .where(boundaries.c.status == "pending")
            .values(
                status="resolved",
                resolved_at=isoformat(receipt.resolved_at),
                document=resolved.model_dump_json(),
            )
        )
        if result.rowcount != 1:
            raise _not_pending(current)
        self.record_attempt_within(conn, attempt)
        self.ledger_append(
            conn,
            [
                (
                    "boundary_resolved",
                    {
                        **resolution,
                        "digest": current.digest,
                        "attempt_receipt_hash": attempt.receipt_hash,
                    },
                )
            ],
        )
        return resolved

    # --- reading ------------------------------------------------------------------------

    def get_within(self, conn: Connection, boundary_id: str) -> Boundary:
        row = conn.execute(
            select(boundaries.c.document).where(boundaries.c.boundary_id == boundary_id)
        ).first()
        if row is None:
            raise NotFound(
                f"no boundary {boundary_id!r}", code="boundary.not_found", boundary_id=boundary_id
            )
        return Boundary.model_validate_json(row.document)

    def get(self, boundary_id: str) -> Boundary:
        with self.db.read() as conn:
            return self.get_within(conn, boundary_id)

    def by_cases_within(self, conn: Connection, case_ids: Iterable[str]) -> dict[str, Boundary]:
        """Existing boundaries of ``case_ids``, by case id."""
        ids = sorted(set(case_ids))
        if not ids:
            return {}
        rows = conn.execute(
            select(boundaries.c.document).where(boundaries.c.case_id.in_(ids))
        ).all()
        found = [Boundary.model_validate_json(row.document) for row in rows]
        return {b.case_id: b for b in found}

    def find(
        self,
        *,
        session_id: str | None = None,
        status: BoundaryStatus | Sequence[BoundaryStatus] | None = None,
    ) -> list[Boundary]:
        """Boundaries (oldest first), optionally of one session and status (or statuses)."""
        query = select(boundaries.c.document)
        if session_id is not None:
            query = query.where(boundaries.c.session_id == session_id)
        if status is not None:
            statuses = [status] if isinstance(status, str) else list(status)
            query = query.where(boundaries.c.status.in_(statuses))
        query = query.order_by(boundaries.c.created_at, boundaries.c.boundary_id)
        with self.db.read() as conn:
            rows = conn.execute(query).all()
        return [Boundary.model_validate_json(row.document) for row in rows]

    def pending(self, session_id: str | None = None) -> list[Boundary]:
        """Boundaries a successor can settle with one probe call (``status="pending"``)."""
        return self.find(session_id=session_id, status="pending")

    def attempts(self, boundary_id: str) -> list[ProbeAttempt]:
        """Every probe attempt on the boundary, oldest first."""
        query = (
            select(boundary_attempts.c.document)
            .where(boundary_attempts.c.boundary_id == boundary_id)
            .order_by(boundary_attempts.c.attempted_at, boundary_attempts.c.attempt_id)
        )
        with self.db.read() as conn:
            rows = conn.execute(query).all()
        return [ProbeAttempt.model_validate_json(row.document) for row in rows]

    @staticmethod
    def _check_sealed(attempt: ProbeAttempt) -> None:
        if not attempt.receipt_hash:
            raise ValidationError(
                "a probe attempt is sealed before it is recorded",
                code="boundary.unsealed_receipt",
                field="receipt_hash",
                rule="call attempt.sealed() first",
            )


def _not_pending(boundary: Boundary) -> ValidationError:
    return ValidationError(
        f"boundary {boundary.boundary_id!r} is {boundary.status}, not pending",
        code="boundary.not_pending",
        field="status",
        rule="only a pending boundary can be resolved",
        boundary_id=boundary.boundary_id,
        status=boundary.status,
    )
