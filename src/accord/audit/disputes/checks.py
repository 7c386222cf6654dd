"""Comparing a stored table with the rows the signed records imply (pure but for the read).

A table's description maps each column to a :class:`Signed` check (where the signed records
state the value, and how the stored value is compared with it) or to ``Unsigned`` (why no
record states it). :func:`audit_table` reads the table once, in key order, and reports the
first row no signed record backs, the first column that disagrees, or the first row the
signed records imply that is missing.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Table, select

from accord.audit.paths import RowProblem, Unsigned, shown

Key = tuple[Any, ...]


@dataclass(frozen=True)
class Signed:
    """A column whose value a signed record states: ``says`` where, ``expected(signed, row)``
    the value it states for the row, ``same(stored, expected)`` the comparison."""

    says: str
    expected: Callable[[Any, Mapping[str, Any]], Any]
    same: Callable[[Any, Any], bool] = operator.eq


Description = Mapping[str, Signed | Unsigned]


def same_json(stored: Any, expected: Any) -> bool:
    """A JSON text column: equal to the signed value once parsed (formatting is free)."""
    if not isinstance(stored, str | bytes):
        return stored is None and expected is None
    try:
        return bool(json.loads(stored) == expected)
    except ValueError:
        return False


def key_text(key: Key) -> str:
    return "/".join(str(part) for part in key)


def _problem(table: str, kind: str, key: Key, column: str, rule: str, **values: Any) -> RowProblem:
    return RowProblem(
        code=f"{table}.{kind}",
        table=table,
        key=key_text(key),
        column=column,
        rule=rule,
        expected=shown(values["expected"]) if "expected" in values else None,
        stored=shown(values["stored"]) if "stored" in values else None,
    )


def audit_table(
    conn: Connection,
    table: Table,
    description: Description,
    signed: Mapping[Key, Any],
    *,
    key: Sequence[str] = (),
    required: Callable[[Key, Any], bool] = lambda _key, _signed: True,
    not_signed_yet: Callable[[Mapping[str, Any]], bool] | None = None,
) -> tuple[int, RowProblem | None]:
    """Check every row of ``table`` against ``signed`` (the row's key — its primary key, or
    the columns ``key`` names — → what the signed records say about that row); every signed
    row ``required`` says must exist has to. A row ``not_signed_yet`` accepts, with no signed
    record, is one the design leaves unsigned for now (counted, not compared). Returns the rows
    checked and the first problem."""
    keys = [table.c[n] for n in key] if key else list(table.primary_key.columns)
    names = [c.name for c in keys]
    checks = [
        (c, how.expected, None if how.same is operator.eq else how.same, how)
        for c, how in description.items()
        if isinstance(how, Signed)
    ]
    seen: set[Key] = set()
    checked = 0
    columns = [c.name for c in table.columns]
    result = conn.execute(select(table).order_by(*keys))
    try:
        for values in result:  # plain tuples: a RowMapping per row costs more than the checks
            row: Mapping[str, Any] = dict(zip(columns, values, strict=True))
            found = tuple(row[n] for n in names)
            checked += 1
            seen.add(found)
            about = signed.get(found)
            if about is None and not_signed_yet is not None and not_signed_yet(row):
                continue
            if about is None:
                return checked, _problem(
                    table.name, "unbacked", found, "row", "no signed record states this row"
                )
            for column, expected_of, same, how in checks:
                expected = expected_of(about, row)
                stored = row[column]
                if not (stored == expected if same is None else same(stored, expected)):
                    return checked, _problem(
                        table.name,
                        "mismatch",
                        found,
                        column,
                        f"differs from the signed record ({how.says})",
                        expected=expected,
                        stored=stored,
                    )
    finally:
        result.close()  # a problem returns mid-read: release the cursor (SQLite's read lock)
    for wanted, about in signed.items():
        if wanted not in seen and required(wanted, about):
            return checked, _problem(
                table.name,
                "missing_row",
                wanted,
                "row",
                "a signed record states it; the row is gone",
            )
    return checked, None
