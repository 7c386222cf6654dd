"""One in-process gate for the service's own write transactions (decisions, batches, sweeps).

Queueing this process's writers before the database is now :meth:`accord.store.Database.write`'s
job, for every writer (settles' group commit included), so this gate adds nothing to it; it
still keeps a whole decision (its reads included) one at a time per process. Single settles
skip it: the library's group commit batches concurrent callers into one transaction.
"""

from __future__ import annotations

import threading
from typing import Any, cast

from litestar.datastructures import State


def write_gate(state: State) -> threading.Lock:
    return cast(threading.Lock, cast(Any, state)["write_gate"])
