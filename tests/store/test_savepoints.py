"""``Database.savepoint``: a failed block rolls back alone, with its after-commit callbacks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Connection, select
from sqlalchemy.exc import IntegrityError

from accord.errors import SavepointLost
from accord.store import Database, open_database
from accord.store.tables import api_keys


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.dispose()


def _key(key_id: str) -> dict[str, object]:
    return {
        "key_id": key_id, "token_hash": key_id, "role": "auditor", "agent_id": None,
        "principal_id": None, "label": "", "created_at": "2026-01-01T00:00:00Z",
        "expires_at": None, "revoked_at": None,
    }


def _failing_block(db: Database, conn: Connection, ran: list[str]) -> None:
    with db.savepoint(conn):
        conn.execute(api_keys.insert().values(_key("key:dropped")))
        db.after_commit(conn, lambda: ran.append("inside"))
        raise RuntimeError("this block fails")


def test_a_failed_savepoint_drops_its_writes_and_callbacks_and_the_transaction_goes_on(
    db: Database,
) -> None:
    ran: list[str] = []
    with db.write() as conn:
        conn.execute(api_keys.insert().values(_key("key:kept")))
        db.after_commit(conn, lambda: ran.append("outside"))
        with pytest.raises(RuntimeError):
            _failing_block(db, conn, ran)
        with db.savepoint(conn):
            conn.execute(api_keys.insert().values(_key("key:second")))
            db.after_commit(conn, lambda: ran.append("second"))
    with db.read() as conn:
        stored = set(conn.execute(select(api_keys.c.key_id)).scalars())
    assert stored == {"key:kept", "key:second"}
    assert ran == ["outside", "second"]


def test_on_sqlite_temporary_storage_such_as_savepoint_journals_is_set_to_memory(
    tmp_path: Path,
) -> None:
    database = open_database(f"sqlite:///{tmp_path / 'accord.db'}")
    try:
        with database.write() as conn, database.savepoint(conn):
            assert conn.exec_driver_sql("PRAGMA temp_store").scalar() == 2  # MEMORY
    finally:
        database.dispose()


def test_a_failed_inner_savepoint_rolls_back_only_its_own_writes_inside_an_outer_one(
    db: Database,
) -> None:
    ran: list[str] = []
    with db.write() as conn, db.savepoint(conn):
        conn.execute(api_keys.insert().values(_key("key:outer")))
        with pytest.raises(RuntimeError):
            _failing_block(db, conn, ran)
        conn.execute(api_keys.insert().values(_key("key:outer-after")))
    with db.read() as conn:
        stored = set(conn.execute(select(api_keys.c.key_id)).scalars())
    assert stored == {"key:outer", "key:outer-after"}
    assert ran == []


def _outer_failing_after_its_inner_block(db: Database, conn: Connection) -> None:
    with db.savepoint(conn):
        with db.savepoint(conn):
            conn.execute(api_keys.insert().values(_key("key:inner")))
        raise RuntimeError("the outer block fails after the inner one was released")


def test_a_failed_outer_savepoint_rolls_back_its_released_inner_one_too(db: Database) -> None:
    with db.write() as conn:
        conn.execute(api_keys.insert().values(_key("key:kept")))
        with pytest.raises(RuntimeError):
            _outer_failing_after_its_inner_block(db, conn)
    with db.read() as conn:
        stored = set(conn.execute(select(api_keys.c.key_id)).scalars())
    assert stored == {"key:kept"}


def _duplicate_key(db: Database, conn: Connection) -> None:
    with db.savepoint(conn):
        conn.execute(api_keys.insert().values(_key("key:taken")))


def test_a_database_error_inside_a_savepoint_rolls_back_alone_and_the_transaction_goes_on(
    db: Database,
) -> None:
    # on PostgreSQL the error aborts the transaction until ROLLBACK TO SAVEPOINT clears it
    with db.write() as conn:
        conn.execute(api_keys.insert().values(_key("key:taken")))
        with pytest.raises(IntegrityError):
            _duplicate_key(db, conn)
        conn.execute(api_keys.insert().values(_key("key:after")))
    with db.read() as conn:
        stored = set(conn.execute(select(api_keys.c.key_id)).scalars())
    assert stored == {"key:taken", "key:after"}


def _ending_the_transaction_inside(db: Database, conn: Connection) -> None:
    with db.savepoint(conn):
        conn.execute(api_keys.insert().values(_key("key:lost")))
        conn.exec_driver_sql("ROLLBACK")  # as SQLite does by itself on a full disk
        raise RuntimeError("the step failed after its transaction was gone")


def test_a_savepoint_that_cannot_be_rolled_back_to_is_lost_not_a_failed_step(
    db: Database,
) -> None:
    with pytest.raises(SavepointLost) as caught, db.write() as conn:
        _ending_the_transaction_inside(db, conn)
    assert caught.value.code == "store.savepoint_lost"
    with db.read() as conn:
        assert list(conn.execute(select(api_keys.c.key_id)).scalars()) == []


def test_on_an_in_memory_database_a_read_inside_a_write_does_not_undo_the_write() -> None:
    # one connection serves every checkout there: handing the read's back must not roll back
    database = open_database("sqlite://")
    try:
        with database.write() as conn:
            conn.execute(api_keys.insert().values(_key("key:before-the-read")))
            database.read_row("SELECT 1")
            conn.execute(api_keys.insert().values(_key("key:after-the-read")))
        with database.read() as conn:
            stored = set(conn.execute(select(api_keys.c.key_id)).scalars())
        assert stored == {"key:before-the-read", "key:after-the-read"}
    finally:
        database.dispose()
