"""``short_read``: where a route's one short database read runs.

On SQLite the read is a local file read well under a millisecond, and handing it to a worker
thread and back costs the server more than the read itself (measured on the queue listing:
about a quarter of its CPU time, issue 13), so it runs in place on the event loop — but
only when the caller says the read is an indexed one (``indexed``) and the pool has an idle
connection to give it: waiting for a connection that the worker threads hold, or scanning,
would hold every other request on the loop. Otherwise, and always on PostgreSQL (a network
round trip), it runs on a worker thread, as a ``sync_to_thread`` handler would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import anyio.to_thread

from accord.store import Database

T = TypeVar("T")


async def short_read(db: Database, read: Callable[[], T], *, indexed: bool) -> T:
    """``read()``'s result: run in place on SQLite when ``indexed`` and a connection is idle,
    on a worker thread otherwise."""
    if indexed and db.is_sqlite and db.idle_connections() > 0:
        return read()
    return await anyio.to_thread.run_sync(read)
