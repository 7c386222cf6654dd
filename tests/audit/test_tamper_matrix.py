"""The tamper matrix, as data: every column of every table ``verify`` vouches for × every way
to alter it (change the value, null it, swap it with another row's), every row deleted or
inserted, and every signed field of the stored documents rewritten *consistently* (document
and rows rebuilt with the project's own row builders). Each must make ``Accord.verify`` fail
naming the table and row, unless the column or field is declared unsigned, with a reason.

The matrix is generated from ``store/tables.py`` and the audit's descriptions, so a new column
or field is covered (or must be declared) without editing this file.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Boolean, Connection, Integer, LargeBinary, Table, and_, delete, insert
from sqlalchemy import update as sql_update

from accord.approvals.item import ApprovalItem
from accord.approvals.rows import item_row
from accord.audit.approvals import APPROVAL_DOCUMENT
from accord.audit.boundaries import stored_boundary_row
from accord.audit.case_description import CASE_DOCUMENT, DISSENT_DOCUMENT
from accord.audit.paths import Unsigned
from accord.audit.tables import AUDITED_COLUMNS
from accord.boundary.model import Boundary, ProbeAttempt
from accord.boundary.store import attempt_row
from accord.cases import Case, DissentRecord
from accord.cases.store import case_row, dissent_row, party_rows
from accord.errors import AccordError, VerificationFailed
from accord.precedents import JurisprudenceBundle
from accord.precedents.rows import RegistryRows

from .conftest import AUDITED_TABLES, Populated

LEDGER_TABLES = {"ledger_entries", "ledger_checkpoints"}
#: Row mutations no check of the database alone can catch, and why.
UNDETECTABLE_ROW_MUTATIONS = {
    ("ledger_checkpoints", "delete"): "a checkpoint only restates the entries; dropping one "
    "is caught only against a checkpoint kept outside the database (a trusted checkpoint)",
}
#: Tampering that still crashes ``verify`` instead of failing it (none: keep it that way).
KNOWN_CRASHES: dict[tuple[str, str, str], Any] = {}
#: Document fields that no single-field rewrite of the populated database can alter while the
#: document stays valid (the model's own invariants tie them to other fields), and why. Each
#: test proves its entries still hold, so a field that becomes rewritable is tampered with.
NO_SINGLE_FIELD_REWRITE = {
    ("cases", "decision.conflicts_resolved"): "set only by merges of structured outputs, which "
    "the populated database's merge does not need (no field was chosen)",
    ("cases", "dcp_status"): "a DCP status is tied to the case's status by the lifecycle "
    "(accord.cases.lifecycle.LEGAL_PAIRS), and every populated escalated case is appealing",
    ("dissents", "arguments"): "only debates record arguments; the populated database has none",
    ("dissents", "agent_id"): "a dissent's agent is tied to its position's agent (validated)",
    ("approval_items", "policy"): "every populated item runs under the one configured policy, "
    "and a changed policy is refused against the item's escalation step",
    ("approval_items", "decision.outcome"): "an outcome is tied to the decision's via/choice",
    ("approval_items", "decision.via"): "via is tied to the decider and the outcome",
    ("approval_items", "positions.reasoning"): "the populated items' positions give no reasoning "
    "(an empty text is not rewritten here); tests/audit/test_shown_content.py rewrites it",
}


class NoRewrite(Exception):
    """No valid single-field rewrite exists for that path in the populated database."""


#: Paths of the case view that are not fields of the case document (derived for the compare).
SYNTHETIC_PATHS = {"escalated", "log.agents"}


def _raw_cases() -> Iterator[Any]:
    for table_name in AUDITED_COLUMNS:
        for column in AUDITED_TABLES[table_name].columns:
            kinds = ["change", "swap"] + (["null"] if column.nullable else [])
            for kind in kinds:
                marks = KNOWN_CRASHES.get((table_name, column.name, kind), ())
                yield pytest.param(
                    table_name,
                    column.name,
                    kind,
                    id=f"{table_name}.{column.name}-{kind}",
                    marks=marks,
                )
        for kind in ("delete", "insert"):
            yield pytest.param(table_name, "row", kind, id=f"{table_name}-{kind}")


def _failure(populated: Populated) -> VerificationFailed | None:
    try:
        populated.accord.verify(workers=1)
    except VerificationFailed as error:
        return error
    return None


def _names(error: VerificationFailed, table: str) -> bool:
    if table in LEDGER_TABLES:
        named = "seq" in error.context or "tree_size" in error.context
        return (error.code.startswith("ledger") and named) or error.context.get("table") == table
    return error.context.get("table") == table and bool(error.context.get("key"))


def _key(table: Table, row: dict[str, Any]) -> Any:
    return and_(*(c == row[c.name] for c in table.primary_key.columns))


def _changed(column: Any, value: Any) -> Any:
    if isinstance(column.type, Boolean):
        return not value
    if isinstance(column.type, Integer):  # BigInteger is an Integer
        return value + 1
    if isinstance(column.type, LargeBinary):
        data = bytearray(value)
        data[-1] ^= 1
        return bytes(data)
    return _tilde(column, value)


def _tilde(column: Any, value: Any) -> str:
    """``value`` with a ``~`` appended, or in place of its last character at the column's
    length (PostgreSQL refuses a longer value; a token hash fills its 64 characters)."""
    length = getattr(column.type, "length", None)
    text = str(value)
    return f"{text[:-1]}~" if length is not None and len(text) >= length else f"{text}~"


def _unique_sets(table: Table) -> list[tuple[str, ...]]:
    """The column sets the table keeps unique: its primary key, unique columns and indexes."""
    sets = [tuple(c.name for c in table.primary_key.columns)]
    sets += [(c.name,) for c in table.columns if c.unique]
    sets += [tuple(c.name for c in i.columns) for i in table.indexes if i.unique]
    return sets


def _swappable(
    table: Table,
    column: str,
    rows: list[dict[str, Any]],
    first: dict[str, Any],
    other: dict[str, Any],
) -> bool:
    """Swapping ``column`` between the two rows changes the table (the rows differ elsewhere)
    and keeps every unique set unique."""
    if all(first[c] == other[c] for c in first if c != column):
        return False
    swapped = {id(first): other[column], id(other): first[column]}
    for names in _unique_sets(table):
        if column not in names:
            continue
        keys = [
            tuple(swapped.get(id(r), r[n]) if n == column else r[n] for n in names) for r in rows
        ]
        if len(set(keys)) != len(keys):
            return False
    return True


def _changeable(table: Table, column: str, rows: list[dict[str, Any]], row: dict[str, Any]) -> bool:
    """Changing ``column`` of ``row`` keeps every unique set unique."""
    changed = _changed(table.c[column], row[column])
    for names in _unique_sets(table):
        if column not in names:
            continue
        keys = [tuple(changed if r is row and n == column else r[n] for n in names) for r in rows]
        if len(set(keys)) != len(keys):
            return False
    return True


def _raw_mutation(
    conn: Connection, table: Table, column_name: str, kind: str, rows: list[dict[str, Any]]
) -> None:
    if column_name == "row":
        row = rows[len(rows) // 2]
        if kind == "delete":
            conn.execute(delete(table).where(_key(table, row)))
            return
        copy = dict(row)
        for name in {n for names in _unique_sets(table) for n in names}:
            c = table.c[name]
            copy[name] = 0 if isinstance(c.type, Integer) else _tilde(c, row[name])
        if table.name == "ledger_checkpoints":
            copy["tree_size"] = 0
        conn.execute(insert(table).values(copy))
        return
    column = table.c[column_name]
    filled = [r for r in rows if r[column_name] is not None]
    if not filled:
        pytest.fail(f"the populated database holds no {table.name}.{column_name} to alter")
    if kind == "null":
        conn.execute(sql_update(table).where(_key(table, filled[0])).values({column_name: None}))
        return
    if kind == "change":
        # the last row: an integer key moved up leaves a gap instead of colliding (or the
        # last whose changed value keeps every unique set unique)
        row = next(
            (r for r in reversed(filled) if _changeable(table, column_name, rows, r)), filled[-1]
        )
        conn.execute(
            sql_update(table)
            .where(_key(table, row))
            .values({column_name: _changed(column, row[column_name])})
        )
        return
    first = filled[0]
    other = next(
        (
            r
            for r in rows
            if r[column_name] != first[column_name]
            and _swappable(table, column_name, rows, first, r)
        ),
        None,
    )
    if other is None:  # every stored value is alike: a swap changes nothing, so change one
        _raw_mutation(conn, table, column_name, "change", rows)
        return
    unique = any(column_name in names for names in _unique_sets(table))
    parking = _changed(column, max(r[column_name] for r in filled)) if unique else None
    if unique:
        if isinstance(column.type, Integer):
            parking = max(r[column_name] for r in filled) + 1000
        conn.execute(sql_update(table).where(_key(table, first)).values({column_name: parking}))
        conn.execute(
            sql_update(table).where(_key(table, other)).values({column_name: first[column_name]})
        )
        moved = {**first, column_name: parking}
        conn.execute(
            sql_update(table).where(_key(table, moved)).values({column_name: other[column_name]})
        )
        return
    conn.execute(
        sql_update(table).where(_key(table, first)).values({column_name: other[column_name]})
    )
    conn.execute(
        sql_update(table).where(_key(table, other)).values({column_name: first[column_name]})
    )


@pytest.mark.parametrize(("table_name", "column_name", "kind"), list(_raw_cases()))
def test_every_column_and_row_altered_in_the_database_fails_verification_naming_it(
    populated: Populated, table_name: str, column_name: str, kind: str
) -> None:
    described = AUDITED_COLUMNS[table_name].get(column_name)
    if isinstance(described, Unsigned):
        assert described.reason, f"{table_name}.{column_name} is unsigned without a reason"
        return
    table = AUDITED_TABLES[table_name]
    try:
        with populated.accord.db.write() as conn:
            _raw_mutation(conn, table, column_name, kind, populated.rows[table_name])
        error = _failure(populated)
    finally:
        populated.restore({table_name})
    if (table_name, kind) in UNDETECTABLE_ROW_MUTATIONS and column_name == "row":
        assert error is None, "detected after all: drop it from UNDETECTABLE_ROW_MUTATIONS"
        return
    assert error is not None, f"{table_name}.{column_name} {kind} verified"
    assert _names(error, table_name), error.to_dict()


# --- consistent rewrites of a stored document ------------------------------------------------


def _mutated(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        members = list(type(value))
        return members[(members.index(value) + 1) % len(members)]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return round(value / 2, 4) if value else 0.5
    if isinstance(value, datetime):
        return value + timedelta(seconds=1)
    if isinstance(value, str):
        if value[-1:] in "0123456789abcdef" and value[-1:]:  # keeps an id's pattern
            return value[:-1] + ("0" if value[-1] != "0" else "1")
        return f"{value}~"
    if isinstance(value, list | tuple):
        if value and not isinstance(value[0], str):
            return [_mutated(value[0]), *value[1:]]
        return [*value, "injected"]
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, int | float | list | dict) and not isinstance(v, bool):
                return {**value, k: _mutated(v)}
        return {**value, "injected": "x"}
    raise AssertionError(f"no mutation for {value!r}")


def _get(data: Any, path: list[str]) -> Any:
    for name in path:
        if isinstance(data, list | tuple):
            if not data:
                return None
            data = data[0]
        if not isinstance(data, dict):
            return None
        data = data.get(name)
    return data


def _set(data: Any, path: list[str], value: Any) -> None:
    for name in path[:-1]:
        data = data[name]
        if isinstance(data, list | tuple):
            data = data[0]
    data[path[-1]] = value


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == () or value == {}


def _thaw(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _thaw(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_thaw(v) for v in data]
    return data


def _rewrite(
    dumped: list[dict[str, Any]], path: str, valid: Callable[[dict[str, Any]], Any]
) -> tuple[int, Any]:
    """A stored document with its value at ``path`` altered, and still a valid document:
    the value changed, or another stored document's value at that path."""
    parts = path.split(".")
    values = [_get(d, parts) for d in dumped]
    for index, document in enumerate(dumped):
        value = values[index]
        if _empty(value):
            continue
        for candidate in [_mutated(value), *(v for v in values if v != value)]:
            changed = _thaw(document)
            _set(changed, parts, candidate)
            try:
                return index, valid(changed)
            except (ValueError, AccordError):
                continue
    raise NoRewrite(path)


def _case_documents(populated: Populated) -> list[Case]:
    return [Case.model_validate_json(r["document"]) for r in populated.rows["cases"]]


def _write_case(conn: Connection, case: Case, stored_as: str) -> None:
    """Rewrite the case and its party and dissent rows with the project's row builders."""
    conn.execute(
        sql_update(AUDITED_TABLES["cases"])
        .where(AUDITED_TABLES["cases"].c.case_id == stored_as)
        .values(case_row(case))
    )
    for name, rows in (
        ("case_parties", party_rows(case)),
        ("dissents", [dissent_row(d) for d in case.dissent]),
    ):
        table = AUDITED_TABLES[name]
        conn.execute(delete(table).where(table.c.case_id.in_([stored_as, case.case_id])))
        if rows:
            conn.execute(insert(table), rows)


def _document_cases(description: dict[str, Any], skip: set[str]) -> list[Any]:
    return [pytest.param(path, id=path) for path in description if path not in skip]


def _unsigned(described: Any) -> bool:
    """Declared unsigned (then with a reason): such a field is listed, not tampered with."""
    if isinstance(described, Unsigned):
        assert described.reason.strip(), "an unsigned field must say why"
        return True
    return False


def _check_rewrite(
    populated: Populated,
    rewrite: Callable[[Connection], None],
    tables: set[str],
    table: str,
) -> None:
    try:
        with populated.accord.db.write() as conn:
            rewrite(conn)
        error = _failure(populated)
    finally:
        populated.restore(tables)
    assert error is not None, "the consistent rewrite verified"
    assert _names(error, table), error.to_dict()


@pytest.mark.parametrize("path", _document_cases(dict(CASE_DOCUMENT), SYNTHETIC_PATHS))
def test_every_signed_field_of_a_case_rewritten_consistently_fails_verification(
    populated: Populated, path: str
) -> None:
    if _unsigned(CASE_DOCUMENT[path]):
        return
    documents = _case_documents(populated)
    dumped = [c.model_dump() for c in documents]
    if ("cases", path) in NO_SINGLE_FIELD_REWRITE:
        with pytest.raises(NoRewrite):
            _rewrite(dumped, path, Case.model_validate)
        return
    index, forged = _rewrite(dumped, path, Case.model_validate)
    _check_rewrite(
        populated,
        lambda conn: _write_case(conn, forged, documents[index].case_id),
        {"cases", "case_parties", "dissents"},
        "cases",
    )


@pytest.mark.parametrize("path", _document_cases(dict(DISSENT_DOCUMENT), set()))
def test_every_field_of_a_dissent_rewritten_consistently_fails_verification(
    populated: Populated, path: str
) -> None:
    if _unsigned(DISSENT_DOCUMENT[path]):
        return
    documents = [c for c in _case_documents(populated) if c.dissent]
    dumped = [c.dissent[0].model_dump() for c in documents]
    if ("dissents", path) in NO_SINGLE_FIELD_REWRITE:
        with pytest.raises(NoRewrite):
            _rewrite(dumped, path, DissentRecord.model_validate)
        return
    index, dissent = _rewrite(dumped, path, DissentRecord.model_validate)
    case = documents[index]
    forged = case.model_copy(update={"dissent": (dissent, *case.dissent[1:])})
    _check_rewrite(
        populated,
        lambda conn: _write_case(conn, forged, case.case_id),
        {"cases", "case_parties", "dissents"},
        "cases",
    )


@pytest.mark.parametrize("path", _document_cases(dict(APPROVAL_DOCUMENT), set()))
def test_every_signed_field_of_an_approval_item_rewritten_consistently_fails_verification(
    populated: Populated, path: str
) -> None:
    if _unsigned(APPROVAL_DOCUMENT[path]):
        return
    rows = populated.rows["approval_items"]
    items = [ApprovalItem.model_validate_json(r["document"]) for r in rows]
    dumped = [i.model_dump() for i in items]
    if ("approval_items", path) in NO_SINGLE_FIELD_REWRITE:
        with pytest.raises(NoRewrite):
            _rewrite(dumped, path, ApprovalItem.model_validate)
        return
    index, forged = _rewrite(dumped, path, ApprovalItem.model_validate)
    table = AUDITED_TABLES["approval_items"]

    def rewrite(conn: Connection) -> None:
        conn.execute(
            sql_update(table)
            .where(table.c.item_id == items[index].item_id)
            .values(item_row(forged))
        )

    _check_rewrite(populated, rewrite, {"approval_items"}, "approval_items")


# --- boundaries, attempts and bundles: every field of the stored document, rewritten -------


def _bundle_row(bundle: JurisprudenceBundle, seq: int) -> dict[str, Any]:
    rows = RegistryRows()
    rows.add(bundle, seq)
    return rows.bundles[0]


#: table → (document model, key column, the row the store writes for a document)
SIGNED_DOCUMENTS: dict[str, tuple[Any, str, Callable[[Any, dict[str, Any]], dict[str, Any]]]] = {
    "boundaries": (Boundary, "boundary_id", lambda d, _row: stored_boundary_row(d)),
    "boundary_attempts": (ProbeAttempt, "attempt_id", lambda d, _row: attempt_row(d)),
    "precedent_bundles": (
        JurisprudenceBundle,
        "jurisprudence_id",
        lambda d, row: _bundle_row(d, row["seq"]),
    ),
}
#: Fields no single-field rewrite of the populated documents can alter validly, and why.
NO_DOCUMENT_REWRITE = {
    ("boundaries", "marker"): "only an ambiguous boundary carries the marker; the populated "
    "ones are pending or resolved (each status is tied to its crux and tie-breaker)",
    ("precedent_bundles", "record_type"): "one value; dropping it (a bundle signed before "
    "it existed) breaks the signature: tests/precedents/test_bundle.py",
    ("precedent_bundles", "dcp_version"): "one value; dropping it (a bundle signed before "
    "it existed) breaks the signature: tests/precedents/test_bundle.py",
}


def _document_fields() -> Iterator[Any]:
    for table, (model, _, _) in SIGNED_DOCUMENTS.items():
        for name in model.model_fields:
            yield pytest.param(table, name, id=f"{table}.{name}")


@pytest.mark.parametrize(("table_name", "path"), list(_document_fields()))
def test_every_field_of_a_boundary_attempt_or_bundle_rewritten_consistently_fails_verification(
    populated: Populated, table_name: str, path: str
) -> None:
    model, key, row_of = SIGNED_DOCUMENTS[table_name]
    rows = populated.rows[table_name]
    documents = [model.model_validate_json(r["document"]) for r in rows]
    dumped = [d.model_dump() for d in documents]
    if (table_name, path) in NO_DOCUMENT_REWRITE:
        with pytest.raises(NoRewrite):
            _rewrite(dumped, path, model.model_validate)
        return
    index, forged = _rewrite(dumped, path, model.model_validate)
    table = AUDITED_TABLES[table_name]

    def rewrite(conn: Connection) -> None:
        conn.execute(
            sql_update(table)
            .where(table.c[key] == rows[index][key])
            .values(row_of(forged, rows[index]))
        )

    _check_rewrite(populated, rewrite, {table_name}, table_name)
