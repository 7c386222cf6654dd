"""One in-process gate for the service's own write transactions (decisions, batches, sweeps).

On SQLite every writer takes the database's single write lock; threads that collide there
wait in SQLite's busy handler, which sleeps and retries (tens of ms at a time). Queueing this
process's writers on a Python lock first leaves at most one of them at the database, woken
the moment the previous one commits. Single settles skip the gate: the library's group
commit already batches concurrent callers into one transaction.
"""

from __future__ import annotations

import threading
from typing import Any, cast

from litestar.datastructures import State


def write_gate(state: State) -> threading.Lock:
    return cast(threading.Lock, cast(Any, state)["write_gate"])
