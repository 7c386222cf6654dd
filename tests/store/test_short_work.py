"""Short database work from an event loop runs in place only on SQLite, when a pooled
connection is idle and (a read) it is an indexed one; a write takes the writer lock on the loop
first, waiting there while another thread or process holds it, and goes to a worker thread
only when it is held past ``loop_wait``."""

from __future__ import annotations

import threading
import time
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
        assert _writer_free(db)
        assert _where_it_ran(db, indexed=True) == "worker"
        assert _where_it_wrote(db) == "worker"
        db.dispose()


def test_an_in_memory_database_reads_on_a_worker_thread() -> None:
    db = open_database("sqlite://")
    assert _where_it_ran(db, indexed=True) == "worker"
    db.dispose()


def _where_it_wrote(db: Database, *, loop_wait: float = 10.0) -> str:
    async def main() -> str:
        loop_thread = threading.get_ident()
        ran_on = await short_write(db, threading.get_ident, loop_wait=loop_wait)
        return "loop" if ran_on == loop_thread else "worker"

    return anyio.run(main)


def _writer_free(db: Database) -> bool:
    """Whether this thread takes the writer lock without waiting now (and lets it go)."""
    held = db.writer_taken_now()
    if held is None:
        return False
    with held:
        return True


def test_a_write_on_sqlite_with_an_idle_connection_and_no_writer_runs_on_the_event_loop(
    tmp_path: Path,
) -> None:
    db = _warmed(tmp_path)
    assert _writer_free(db)
    assert _where_it_wrote(db) == "loop"
    db.dispose()


@contextmanager
def _writing_on_a_thread(db: Database, *, for_seconds: float = 10.0) -> Iterator[None]:
    """A write transaction of ``db`` held open by another thread for the block, or only for
    ``for_seconds`` when that ends first."""
    writing, finish = threading.Event(), threading.Event()

    def writer() -> None:
        with db.write():
            writing.set()
            finish.wait(for_seconds)

    thread = threading.Thread(target=writer)
    thread.start()
    assert writing.wait(10)
    try:
        yield
    finally:
        finish.set()
        thread.join()


def _two_pooled_connections(db: Database) -> None:
    first, second = db.engine.connect(), db.engine.connect()
    first.close()  # two pooled connections: the writer's and an idle one
    second.close()


def test_a_write_while_another_thread_of_the_process_writes_waits_for_it_on_the_loop(
    tmp_path: Path,
) -> None:
    db = _warmed(tmp_path)
    _two_pooled_connections(db)
    with _writing_on_a_thread(db, for_seconds=0.2):
        assert not _writer_free(db)
        began = time.monotonic()
        assert _where_it_wrote(db) == "loop"
        assert time.monotonic() - began >= 0.1  # it waited for the thread's transaction
    assert _writer_free(db)
    db.dispose()


def test_a_write_whose_writer_lock_stays_held_past_loop_wait_goes_to_a_worker_thread(
    tmp_path: Path,
) -> None:
    db = _warmed(tmp_path)
    _two_pooled_connections(db)
    with _writing_on_a_thread(db):
        # the work itself does not write, so on the worker it does not wait for the writer
        assert _where_it_wrote(db, loop_wait=0.05) == "worker"
    db.dispose()


def test_a_write_while_another_process_writes_the_same_file_waits_on_the_loop(
    tmp_path: Path,
) -> None:
    db = _warmed(tmp_path)
    other = open_database(f"sqlite:///{tmp_path / 'reads.db'}")  # its own writers' lock handle
    with _writing_on_a_thread(other, for_seconds=0.2):
        assert not _writer_free(db)
        assert _where_it_wrote(db) == "loop"
    with _writing_on_a_thread(other):
        assert _where_it_wrote(db, loop_wait=0.05) == "worker"
    assert _writer_free(db)
    other.dispose()
    db.dispose()


def test_the_writer_lock_is_taken_again_by_the_thread_that_holds_it(tmp_path: Path) -> None:
    db = _warmed(tmp_path)
    other = open_database(f"sqlite:///{tmp_path / 'reads.db'}")
    with db.write():
        assert _writer_free(db)  # re-entrant: a nested write would not wait
        assert not _writer_free(other)  # and leaving the nested hold kept the outer one
    assert _writer_free(other)
    other.dispose()
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
