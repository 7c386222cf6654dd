"""A Core statement compiled once per dialect and run on the driver's cursor.

The hot per-request statements (an approval item's load and compare-and-set, a deadline's
look-up and cancel, a case document) are written as SQLAlchemy Core, so they stay readable
and checked against the table definitions; executing them through ``Connection.execute``
costs ~60 µs each in cache-key, compile-cache and result-object work, several times the
statement itself on SQLite. :class:`DriverQuery` renders the statement's SQL for the
connection's dialect once, then hands each execution straight to the DBAPI cursor of the
caller's transaction (through :func:`accord.store.database.driver_cursor`, which raises the
same SQLAlchemy exceptions ``Connection.execute`` would).

Only statements whose values need no type conversion qualify: every column they read or
bind must be a string, text or integer column (what the driver hands back as it is); any
other type is refused when the query is built, not discovered as a wrong value later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Column, Connection, Dialect, Integer, String
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import Executable

from accord.store.database import Database, driver_cursor

#: A statement rendered for one dialect: its SQL, bind names in order, whether the driver
#: takes them by position, and the values the statement itself fixes.
_Rendered = tuple[str, tuple[str, ...], bool, dict[str, Any]]
#: Column types whose values the drivers (sqlite3, psycopg) return and take unconverted.
_PLAIN_TYPES = (String, Integer)  # Text is a String


class DriverQuery:
    """``statement`` (a Core select or update with ``bindparam`` values) run on the driver.

    ``set_columns`` names, for an ``update`` without ``.values()``, the columns its SET
    clause assigns (SQLAlchemy otherwise derives them from each call's parameters).
    """

    def __init__(self, statement: Executable, *, set_columns: Sequence[str] = ()) -> None:
        self._statement = statement
        self._set_columns = tuple(set_columns)
        _refuse_typed_columns(statement)
        self._compiled: dict[str, _Rendered] = {}

    def rows(self, conn: Connection, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Every row, as ``{column name: value}``."""
        with driver_cursor(conn) as cursor:
            return self._rows(cursor, conn.dialect, params)

    def rows_alone(self, db: Database, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """:meth:`rows` of a ``SELECT`` run alone, outside any transaction of the caller's
        (its own snapshot: ``Database.statement_cursor``)."""
        with db.statement_cursor() as cursor:
            return self._rows(cursor, db.engine.dialect, params)

    def _rows(
        self, cursor: Any, dialect: Dialect, params: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        sql, values = self._bound(dialect, params)
        cursor.execute(sql, values)
        names = [d[0] for d in cursor.description or ()]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def tuples(self, conn: Connection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Every row as the driver's tuple, in the selected columns' order (long reads:
        no dict per row)."""
        with driver_cursor(conn) as cursor:
            sql, values = self._bound(conn.dialect, params)
            cursor.execute(sql, values)
            return [tuple(row) for row in cursor.fetchall()]

    def first(self, conn: Connection, params: Mapping[str, Any]) -> dict[str, Any] | None:
        """The first row, or None."""
        with driver_cursor(conn) as cursor:
            sql, values = self._bound(conn.dialect, params)
            cursor.execute(sql, values)
            row = cursor.fetchone()
            if row is None:
                return None
            return dict(zip([d[0] for d in cursor.description], row, strict=True))

    def scalar(self, conn: Connection, params: Mapping[str, Any]) -> Any:
        """The first column of the first row, or None."""
        with driver_cursor(conn) as cursor:
            sql, values = self._bound(conn.dialect, params)
            cursor.execute(sql, values)
            row = cursor.fetchone()
            return None if row is None else row[0]

    def scalars(self, conn: Connection, params: Mapping[str, Any]) -> list[Any]:
        """The first column of every row."""
        with driver_cursor(conn) as cursor:
            sql, values = self._bound(conn.dialect, params)
            cursor.execute(sql, values)
            return [row[0] for row in cursor.fetchall()]

    def execute(self, conn: Connection, params: Mapping[str, Any]) -> int:
        """Run a write; the number of rows it matched."""
        with driver_cursor(conn) as cursor:
            sql, values = self._bound(conn.dialect, params)
            cursor.execute(sql, values)
            return int(cursor.rowcount)

    def _bound(self, dialect: Dialect, params: Mapping[str, Any]) -> tuple[str, Any]:
        sql, names, positional, fixed = self._for(dialect)
        given = {**fixed, **params}
        missing = [n for n in names if n not in given]
        if missing:
            raise ValueError(f"DriverQuery: no value for {missing}")
        if positional:
            return sql, tuple(given[name] for name in names)
        return sql, {name: given[name] for name in names}

    def _for(self, dialect: Dialect) -> _Rendered:
        found = self._compiled.get(dialect.name)
        if found is None:
            compiled = self._statement.compile(  # type: ignore[attr-defined]
                dialect=dialect, column_keys=list(self._set_columns) or None
            )
            assert isinstance(compiled, SQLCompiler)
            rendered = compiled.bind_names  # bind parameter -> its name in the SQL
            names = tuple(compiled.positiontup or dict.fromkeys(rendered.values()))
            fixed = {
                rendered[bind]: bind.value
                for bind in rendered
                if not bind.required and bind.value is not None
            }
            found = (compiled.string, names, bool(compiled.positional), fixed)
            self._compiled[dialect.name] = found
        return found


def _refuse_typed_columns(statement: Executable) -> None:
    """Refuse a statement reading, setting or matching a column the driver would not hand
    over as it is."""
    columns: list[Any] = list(getattr(statement, "selected_columns", ()))
    table = getattr(statement, "table", None)
    if table is not None:  # an update: every column it may set
        columns += list(table.columns)
    where = getattr(statement, "whereclause", None)
    if where is not None:
        columns += [e for e in _walk(where) if isinstance(e, Column)]
    for column in columns:
        if not isinstance(column.type, _PLAIN_TYPES):
            raise TypeError(
                f"DriverQuery: column {column.name} is {column.type!r}; only string and "
                "integer columns pass the driver unconverted"
            )


def _walk(element: ClauseElement) -> list[ClauseElement]:
    found = [element]
    for child in element.get_children():
        found += _walk(child)
    return found
