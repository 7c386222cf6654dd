"""``short_read`` and ``short_write``: where a caller on an event loop runs short database work.

On SQLite a short statement is local file work of well under a millisecond, and handing it
to a worker thread and back costs more than the work itself: measured under 50 clients, the
thread hops (and the worker threads' contention for the GIL with the event loop) were about a
quarter of a queue listing's CPU time and made a settle's or a decision's p99 three to four
times its mean (issue 13). So on SQLite the work runs in place on the event loop, in arrival
order — but only when it cannot wait there on another thread of this process: a pooled
connection must be idle (both), the read must be an indexed one (``indexed``: a scan would
hold every other request on the loop), and no writer of this process nor of another process
may hold the writer lock (writes; the writers' file lock is probed without blocking).
Otherwise, and always on PostgreSQL (a network round trip), it runs on a worker thread. A
write in place can still meet another process's write that began after the probe, and then
waits, holding the loop, for that one transaction.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio.to_thread

from accord.store.database import Database

T = TypeVar("T")


async def short_read(db: Database, read: Callable[[], T], *, indexed: bool) -> T:
    """``read()``'s result: run in place on SQLite when ``indexed`` and a connection is idle,
    on a worker thread otherwise."""
    return await _run(read, in_place=indexed and _idle_sqlite(db))


async def short_write(db: Database, write: Callable[[], T]) -> T:
    """``write()``'s result (one short write transaction, or a group commit's batch): run in
    place on SQLite when a connection is idle and no writer (of this process or another)
    holds the writer lock, on a worker thread otherwise."""
    return await _run(write, in_place=_idle_sqlite(db) and db.writer_idle())


async def on_loop_if_sqlite(
    db: Database, on_loop: Callable[[], Awaitable[T]], on_thread: Callable[[], T]
) -> T:
    """A whole library call made from an event loop (a settle, a decision): ``on_loop()``
    (the async path, whose own short writes follow the rules above) on SQLite, and
    ``on_thread()`` on a worker thread on PostgreSQL, where every read the call makes before
    it writes is a network round trip that must not hold the loop."""
    if db.is_sqlite:
        return await on_loop()
    return await anyio.to_thread.run_sync(on_thread)


def _idle_sqlite(db: Database) -> bool:
    return db.is_sqlite and db.idle_connections() > 0


async def _run(work: Callable[[], T], *, in_place: bool) -> T:
    if in_place:
        return work()
    return await anyio.to_thread.run_sync(work)
