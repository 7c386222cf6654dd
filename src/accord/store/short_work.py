"""``short_read`` and ``short_write``: where a caller on an event loop runs short database work.

On SQLite a short statement is local file work of well under a millisecond, and handing it
to a worker thread and back costs more than the work itself: measured under 50 clients, the
thread hops (and the worker threads' contention for the GIL with the event loop) were about a
quarter of a queue listing's CPU time and made a settle's or a decision's p99 three to four
times its mean (issue 13). So on SQLite the work runs in place on the event loop, in arrival
order — but only when it cannot wait there on another thread of this process: a pooled
connection must be idle (both) and the read must be an indexed one (``indexed``: a scan would
hold every other request on the loop). Otherwise, and always on PostgreSQL (a network round
trip), it runs on a worker thread.

A write in place first takes the writer lock on the loop without blocking. While another
thread of this process or another process (another ``accord serve`` worker) holds it, the
write waits for it *on the loop*, trying again every turn or so (0.2 ms growing to 1 ms), and
the loop serves other requests meanwhile. Waiting on a worker thread instead was measured
(two workers on one file, 50 clients) to cost 17–38 % of the rate: the waiting threads'
contention for the GIL with the event loop stretched every transaction the loop ran. Only
after ``loop_wait`` seconds (a holder paused mid-transaction) does the write go to a worker
thread, which waits there as a synchronous writer does and meets the same timeouts.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from typing import TypeVar

import anyio.to_thread

from accord.store.database import Database

T = TypeVar("T")
#: How long a write waits on the loop for the writer lock before it waits on a worker thread.
LOOP_WAIT_SECONDS = 1.0
_FIRST_PAUSE, _LONGEST_PAUSE = 0.0002, 0.001


async def short_read(db: Database, read: Callable[[], T], *, indexed: bool) -> T:
    """``read()``'s result: run in place on SQLite when ``indexed`` and a connection is idle,
    on a worker thread otherwise."""
    return await _run(read, in_place=indexed and _idle_sqlite(db))


async def short_write(
    db: Database, write: Callable[[], T], *, loop_wait: float = LOOP_WAIT_SECONDS
) -> T:
    """``write()``'s result (one short write transaction, or a group commit's batch): on
    SQLite with an idle connection, run in place holding the writer lock, once the loop has
    taken it (waiting up to ``loop_wait`` seconds for it there); on a worker thread
    otherwise."""
    if _idle_sqlite(db):
        held = await _writer_taken_on_loop(db, loop_wait)
        if held is not None:
            with held:
                if db.idle_connections() > 0:  # none taken by a thread while this waited
                    return write()
    return await anyio.to_thread.run_sync(write)


async def _writer_taken_on_loop(db: Database, wait: float) -> AbstractContextManager[None] | None:
    give_up = time.monotonic() + wait
    pause = _FIRST_PAUSE
    while (held := db.writer_taken_now()) is None:
        if time.monotonic() >= give_up:
            return None
        await asyncio.sleep(pause)
        pause = min(pause * 2, _LONGEST_PAUSE)
    return held


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
