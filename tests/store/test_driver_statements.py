"""``Database.insert_rows``, ``update_rows``, ``read_row`` and the driver-level statements
under them (``driver_execute``, ``driver_row``): the hot paths, the same on SQLite and
PostgreSQL, with SQLAlchemy's own exceptions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError, IntegrityError

from accord.errors import StoreError
from accord.store import Database, open_database
from accord.store.database import driver_execute, driver_row
from accord.store.tables import api_keys


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.dispose()


def _key(key_id: str, label: str = "") -> dict[str, object]:
    return {
        "key_id": key_id,
        "token_hash": f"hash:{key_id}",
        "role": "auditor",
        "agent_id": None,
        "principal_id": None,
        "label": label,
        "created_at": "2026-01-01T00:00:00Z",
        "expires_at": None,
        "revoked_at": None,
    }


def _labels(db: Database) -> dict[str, str]:
    with db.read() as conn:
        rows = conn.execute(select(api_keys.c.key_id, api_keys.c.label)).all()
    return {str(r[0]): str(r[1]) for r in rows}


def test_update_rows_sets_the_given_columns_of_the_matching_rows_only(db: Database) -> None:
    with db.write() as conn:
        db.insert_rows(conn, api_keys, [_key("key:a"), _key("key:b"), _key("key:c")])
    with db.write() as conn:
        db.update_rows(
            conn,
            api_keys,
            ("key_id",),
            [{"key_id": "key:a", "label": "first"}, {"key_id": "key:c", "label": "third"}],
        )
    assert _labels(db) == {"key:a": "first", "key:b": "", "key:c": "third"}


def test_update_rows_refuses_a_column_the_table_does_not_have(db: Database) -> None:
    with db.write() as conn, pytest.raises(ValueError, match="bad columns"):
        db.update_rows(conn, api_keys, ("key_id",), [{"key_id": "key:a", "colour": "red"}])


def test_read_row_answers_the_first_row_or_none(db: Database) -> None:
    with db.write() as conn:
        db.insert_rows(conn, api_keys, [_key("key:a", "mine")])
    mark = "?" if db.is_sqlite else "%s"
    sql = f"SELECT label FROM api_keys WHERE key_id = {mark}"
    assert db.read_row(sql, ("key:a",)) == ("mine",)
    assert db.read_row(sql, ("key:missing",)) is None


def test_read_row_sees_a_write_committed_after_an_earlier_read(db: Database) -> None:
    mark = "?" if db.is_sqlite else "%s"
    sql = f"SELECT label FROM api_keys WHERE key_id = {mark}"
    assert db.read_row(sql, ("key:a",)) is None
    with db.write() as conn:
        db.insert_rows(conn, api_keys, [_key("key:a", "late")])
    assert db.read_row(sql, ("key:a",)) == ("late",)


def test_a_duplicate_row_is_refused_as_sqlalchemys_integrity_error_and_rolls_back(
    db: Database,
) -> None:
    with db.write() as conn:
        db.insert_rows(conn, api_keys, [_key("key:a", "kept")])
    def insert_b_then_a_again() -> None:
        with db.write() as conn:
            db.insert_rows(conn, api_keys, [_key("key:b")])
            db.insert_rows(conn, api_keys, [_key("key:a", "again")])

    with pytest.raises(IntegrityError):
        insert_b_then_a_again()
    assert _labels(db) == {"key:a": "kept"}  # key:b went with the failed transaction


def test_driver_row_reads_inside_the_writing_transaction_what_it_wrote(db: Database) -> None:
    mark = "?" if db.is_sqlite else "%s"
    sql = f"SELECT label FROM api_keys WHERE key_id = {mark}"
    named = ":label" if db.is_sqlite else "%(label)s"
    with db.write() as conn:
        db.insert_rows(conn, api_keys, [_key("key:a")])
        driver_execute(conn, f"UPDATE api_keys SET label = {named}", [{"label": "own"}])
        assert driver_row(conn, sql, ("key:a",)) == ("own",)
        assert driver_row(conn, sql, ("key:missing",)) is None


def test_a_bad_driver_statement_raises_sqlalchemys_error_naming_the_table(db: Database) -> None:
    # as through exec_driver_sql: SQLAlchemy's error (which a write turns into a StoreError
    # where it is an OperationalError, as on SQLite)
    with pytest.raises((DBAPIError, StoreError)) as failed, db.write() as conn:
        driver_row(conn, "SELECT 1 FROM no_such_table")
    error = failed.value if isinstance(failed.value, DBAPIError) else failed.value.__cause__
    assert isinstance(error, DBAPIError)
    assert "no_such_table" in str(error)
