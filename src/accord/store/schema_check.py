"""Is every table there? A damaged database is named, not met as a driver traceback."""

from __future__ import annotations

from sqlalchemy import inspect
from sqlalchemy.exc import SQLAlchemyError

from accord.errors import StoreError
from accord.store.database import Database
from accord.store.tables import metadata


def require_tables(db: Database) -> None:
    """``store.missing_table`` naming the first of Accord's tables the database lacks."""
    try:
        present = set(inspect(db.engine).get_table_names())
    except SQLAlchemyError as exc:
        raise StoreError(
            f"cannot list the database's tables: {exc}", code="store.read_failed"
        ) from exc
    missing = [name for name in metadata.tables if name not in present]
    if missing:
        raise StoreError(
            f"the database has no table {missing[0]!r}"
            + (f" (nor {', '.join(missing[1:])})" if missing[1:] else "")
            + ": it was dropped or the database is not Accord's",
            code="store.missing_table",
            table=missing[0],
            missing=missing,
        )
