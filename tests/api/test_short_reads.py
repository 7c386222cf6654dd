"""A route's short read runs on the event loop only when it is an indexed read on SQLite and
a pooled connection is idle; otherwise on a worker thread."""

from __future__ import annotations

import threading
from pathlib import Path

import anyio
from sqlalchemy import text

from accord.api.short_reads import short_read
from accord.store import Database, open_database


def _where_it_ran(db: Database, *, indexed: bool) -> str:
    async def main() -> str:
        loop_thread = threading.get_ident()
        ran_on = await short_read(db, threading.get_ident, indexed=indexed)
        return "loop" if ran_on == loop_thread else "worker"

    return anyio.run(main)


def _warmed(tmp_path: Path) -> Database:
    db = open_database(f"sqlite:///{tmp_path / 'reads.db'}")
    with db.read() as conn:  # returns one connection to the pool
        conn.execute(text("SELECT 1"))
    return db


def test_an_indexed_read_on_sqlite_with_an_idle_connection_runs_on_the_event_loop(
    tmp_path: Path,
) -> None:
    db = _warmed(tmp_path)
    assert db.idle_connections() >= 1
    assert _where_it_ran(db, indexed=True) == "loop"
    db.dispose()


def test_a_read_that_may_scan_runs_on_a_worker_thread(tmp_path: Path) -> None:
    db = _warmed(tmp_path)
    assert _where_it_ran(db, indexed=False) == "worker"
    db.dispose()


def test_a_read_with_every_connection_taken_runs_on_a_worker_thread(tmp_path: Path) -> None:
    db = _warmed(tmp_path)
    held = [db.engine.connect() for _ in range(db.idle_connections())]
    assert db.idle_connections() == 0
    assert _where_it_ran(db, indexed=True) == "worker"
    for conn in held:
        conn.close()
    db.dispose()


def test_an_in_memory_database_reads_on_a_worker_thread() -> None:
    db = open_database("sqlite://")
    assert _where_it_ran(db, indexed=True) == "worker"
    db.dispose()
