"""Checking stored boundaries and probe attempts against their signed ledger records.

``BoundaryStore`` signs every write in the same transaction: ``boundary_recorded`` carries the
whole boundary record and its size, ``boundary_resolved`` its resolution (the sealed receipt),
``boundary_probe_attempted`` the whole attempt with its receipt hash. The signed state of a
boundary (or attempt) is rebuilt from those records into the model; the stored document must
equal it field by field, every column must be the one the store's row builder derives from
the document, every signed boundary and attempt must have its row, and every row its record.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Connection, Table, select

from accord.audit.paths import RowProblem, shown
from accord.boundary.model import Boundary, ProbeAttempt
from accord.boundary.store import attempt_row, boundary_row
from accord.store.tables import boundaries, boundary_attempts

RECORDED = "boundary_recorded"
RESOLVED = "boundary_resolved"
ATTEMPTED = "boundary_probe_attempted"
BOUNDARY_EVENTS = (RECORDED, RESOLVED, ATTEMPTED)
#: Fields ``boundary_resolved`` adds to the receipt that are not part of the stored resolution.
_RESOLVED_EXTRAS = ("digest", "attempt_receipt_hash")
_SIGNED_DOCUMENT = "the stored document rebuilt from the signed records; compared field by field"

#: Each column of ``boundaries``: the document field the store derives it from.
BOUNDARY_COLUMNS: Mapping[str, str] = {
    "boundary_id": "boundary_id",
    "session_id": "session_id",
    "case_id": "case_id",
    "task_type": "task_type",
    "status": "status (pending until boundary_resolved signs the resolution)",
    "digest": "digest",
    "size_bytes": "size_bytes (signed beside the record by boundary_recorded)",
    "transcript_bytes": "transcript_bytes",
    "created_at": "created_at",
    "resolved_at": "resolution.resolved_at (signed by boundary_resolved)",
    "document": _SIGNED_DOCUMENT,
}
#: Each column of ``boundary_attempts``: the document field the store derives it from.
ATTEMPT_COLUMNS: Mapping[str, str] = {
    "attempt_id": "attempt_id",
    "boundary_id": "boundary_id",
    "probe": "probe",
    "outcome": "outcome",
    "attempted_at": "attempted_at",
    "receipt_hash": "receipt_hash (signed beside the record by boundary_probe_attempted)",
    "document": _SIGNED_DOCUMENT,
}


def signed_boundaries(
    records: Iterable[tuple[int, str, Mapping[str, Any]]],
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The signed state of every boundary and attempt (id → model fields), folded from the
    records in ledger order (``records_within(conn, BOUNDARY_EVENTS)``)."""
    found: dict[str, dict[str, Any]] = {}
    attempts: dict[str, dict[str, Any]] = {}
    for _seq, event_type, record in records:
        if event_type == RECORDED and isinstance(record.get("boundary_id"), str):
            found[record["boundary_id"]] = {**record, "resolution": None}
        elif event_type == RESOLVED and record.get("boundary_id") in found:
            resolution = {k: v for k, v in record.items() if k not in _RESOLVED_EXTRAS}
            found[record["boundary_id"]].update(status="resolved", resolution=resolution)
        elif event_type == ATTEMPTED and isinstance(record.get("attempt_id"), str):
            attempts[record["attempt_id"]] = dict(record)
    return found, attempts


def stored_boundary_row(boundary: Boundary) -> dict[str, Any]:
    """The row the store holds for ``boundary``: ``resolved_at`` is set with the resolution."""
    resolved = boundary.resolution.get("resolved_at") if boundary.resolution else None
    return {**boundary_row(boundary), "resolved_at": resolved}


def audit_boundaries(
    conn: Connection,
    signed: Mapping[str, Mapping[str, Any]],
    signed_attempts: Mapping[str, Mapping[str, Any]],
    batch: int = 1000,
) -> tuple[int, RowProblem | None]:
    """Check every boundary and attempt row against the signed state; every signed one must
    have its row. Returns the rows checked and the first problem."""
    checked, problem = _audit_table(
        conn, boundaries, "boundary_id", Boundary, stored_boundary_row, signed, batch
    )
    if problem is not None:
        return checked, problem
    more, problem = _audit_table(
        conn, boundary_attempts, "attempt_id", ProbeAttempt, attempt_row, signed_attempts, batch
    )
    return checked + more, problem


def _audit_table(
    conn: Connection,
    table: Table,
    key: str,
    model: type[BaseModel],
    row_of: Callable[[Any], dict[str, Any]],
    signed: Mapping[str, Mapping[str, Any]],
    batch: int,
) -> tuple[int, RowProblem | None]:
    checked, seen, last = 0, set[str](), ""
    column = table.c[key]
    while True:
        rows = conn.execute(
            select(table).where(column > last).order_by(column).limit(batch)
        ).all()
        if not rows:
            break
        for row in rows:
            checked += 1
            stored = dict(row._mapping)
            seen.add(str(stored[key]))
            problem = _audit_row(table.name, key, model, row_of, stored, signed)
            if problem is not None:
                return checked, problem
        last = str(rows[-1]._mapping[key])
    for missing in signed.keys() - seen:
        return checked, _problem(
            "missing_row", table.name, missing, "row", "signed in the ledger, but no row"
        )
    return checked, None


def _audit_row(
    table: str,
    key: str,
    model: type[BaseModel],
    row_of: Callable[[Any], dict[str, Any]],
    stored: Mapping[str, Any],
    signed: Mapping[str, Mapping[str, Any]],
) -> RowProblem | None:
    row_key = str(stored[key])
    try:
        document = model.model_validate_json(stored["document"])
    except PydanticValidationError as exc:
        return _problem(
            "mismatch", table, row_key, "document", f"not a valid document: {exc.errors()[0]}"
        )
    for column, value in row_of(document).items():
        if column != "document" and stored[column] != value:
            return _problem(
                "mismatch",
                table,
                row_key,
                column,
                "the column disagrees with its document",
                value,
                stored[column],
            )
    fields = signed.get(row_key)
    if fields is None:
        return _problem("unbacked", table, row_key, "row", "no signed record states this row")
    try:
        signed_model = model.model_validate(fields)
    except PydanticValidationError:
        return _problem(
            "unbacked", table, row_key, "row", "its signed record is not a valid record"
        )
    if signed_model == document:  # the common case; the field-by-field walk names a change
        return None
    expected, found = signed_model.model_dump(), document.model_dump()
    for name, value in expected.items():
        if found[name] != value:
            return _problem(
                "mismatch",
                table,
                row_key,
                f"document:{name}",
                "differs from the signed record",
                value,
                found[name],
            )
    raise AssertionError("unreachable: the models differ in some field")  # pragma: no cover


def _problem(
    kind: str,
    table: str,
    key: str,
    column: str,
    rule: str,
    expected: Any = None,
    stored: Any = None,
) -> RowProblem:
    values = expected is not None or stored is not None
    return RowProblem(
        code=f"{table}.{kind}",
        table=table,
        key=key,
        column=column,
        rule=rule,
        expected=shown(expected) if values else None,
        stored=shown(stored) if values else None,
    )
