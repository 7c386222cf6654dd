"""Short database work from an event loop runs in place only on SQLite, when a pooled
connection is idle and (a read) it is an indexed one or (a write) no other thread of the
process, nor another process, holds the writer lock; otherwise on a worker thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import pytest
from sqlalchemy import text

from accord.store import Database, open_database
from accord.store.short_work import on_loop_if_sqlite, short_read, short_write
from tests.conftest import fresh_database_url


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


def test_on_postgresql_reads_and_writes_run_on_a_worker_thread(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    with fresh_database_url("postgresql", tmp_path, request) as url:
        db = open_database(url)
        with db.read() as conn:
            conn.execute(text("SELECT 1"))
        assert db.idle_connections() >= 1
        assert db.writer_idle()
        assert _where_it_ran(db, indexed=True) == "worker"
        assert _where_it_wrote(db) == "worker"
        db.dispose()


def test_an_in_memory_database_reads_on_a_worker_thread() -> None:
    db = open_database("sqlite://")
    assert _where_it_ran(db, indexed=True) == "worker"
    db.dispose()


def _where_it_wrote(db: Database) -> str:
    async def main() -> str:
        loop_thread = threading.get_ident()
        ran_on = await short_write(db, threading.get_ident)
        return "loop" if ran_on == loop_thread else "worker"

    return anyio.run(main)


def test_a_write_on_sqlite_with_an_idle_connection_and_no_writer_runs_on_the_event_loop(
    tmp_path: Path,
) -> None:
    db = _warmed(tmp_path)
    assert db.writer_idle()
    assert _where_it_wrote(db) == "loop"
    db.dispose()


@contextmanager
def _writing_on_a_thread(db: Database) -> Iterator[None]:
    """A write transaction of ``db`` held open by another thread for the block."""
    writing, finish = threading.Event(), threading.Event()

    def writer() -> None:
        with db.write():
            writing.set()
            finish.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    assert writing.wait(10)
    try:
        yield
    finally:
        finish.set()
        thread.join()


def test_a_write_while_another_thread_of_the_process_writes_runs_on_a_worker_thread(
    tmp_path: Path,
) -> None:
    db = _warmed(tmp_path)
    first, second = db.engine.connect(), db.engine.connect()
    first.close()  # two pooled connections: the writer's and an idle one
    second.close()
    with _writing_on_a_thread(db):
        assert not db.writer_idle()
        assert db.idle_connections() >= 1
        # the work itself does not write, so it does not wait for the writer
        assert _where_it_wrote(db) == "worker"
    assert db.writer_idle()
    db.dispose()


def test_a_write_while_another_process_writes_the_same_file_runs_on_a_worker_thread(
    tmp_path: Path,
) -> None:
    db = _warmed(tmp_path)
    other = open_database(f"sqlite:///{tmp_path / 'reads.db'}")  # its own writers' lock handle
    with _writing_on_a_thread(other):
        assert not db.writer_idle()
        assert _where_it_wrote(db) == "worker"
    assert db.writer_idle()
    assert _where_it_wrote(db) == "loop"
    other.dispose()
    db.dispose()


def test_the_writer_lock_reads_as_idle_to_the_thread_that_holds_it(tmp_path: Path) -> None:
    db = _warmed(tmp_path)
    with db.write():
        assert db.writer_idle()  # re-entrant: a nested write would not wait
    db.dispose()


def test_a_write_with_every_connection_taken_runs_on_a_worker_thread(tmp_path: Path) -> None:
    db = _warmed(tmp_path)
    held = [db.engine.connect() for _ in range(db.idle_connections())]
    assert _where_it_wrote(db) == "worker"
    for conn in held:
        conn.close()
    db.dispose()


def _which_path(db: Database) -> tuple[str, str]:
    """Which of ``on_loop_if_sqlite``'s two paths ran, and on which thread."""

    async def main() -> tuple[str, str]:
        loop_thread = threading.get_ident()

        async def on_loop() -> tuple[str, int]:
            return "async", threading.get_ident()

        def on_thread() -> tuple[str, int]:
            return "sync", threading.get_ident()

        path, ran_on = await on_loop_if_sqlite(db, on_loop, on_thread)
        return path, "loop" if ran_on == loop_thread else "worker"

    return anyio.run(main)


def test_a_whole_call_takes_the_async_path_on_the_loop_on_sqlite(tmp_path: Path) -> None:
    db = _warmed(tmp_path)
    assert _which_path(db) == ("async", "loop")
    db.dispose()


def test_a_whole_call_takes_the_sync_path_on_a_worker_thread_on_postgresql(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    with fresh_database_url("postgresql", tmp_path, request) as url:
        db = open_database(url)
        assert _which_path(db) == ("sync", "worker")
        db.dispose()
