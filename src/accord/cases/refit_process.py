"""Reliability refits in a worker process, so that a server's event loop never runs one.

A refit reads every past vote and fits Dawid–Skene over them; its cost grows with the
history. On the loop (even split into turns) that cost delays every request in flight, so
under load each refit showed up as a latency spike across all clients (issue 13). A
:class:`ProcessRefits` runs the whole refit in one worker process that opens the database
itself and reads the votes there (SQLite in WAL mode and PostgreSQL both serve a reader in
another process beside the writers); the loop only awaits the few weights that come back.

The worker is started (``spawn``: a fresh interpreter, no copy of the server's threads or
connections) by :meth:`ProcessRefits.start` or else on the first refit, and stopped by
:meth:`ProcessRefits.close`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

from accord.cases.reliability_cache import FittedWeights, fitted_weights
from accord.cases.store import CaseStore
from accord.store import Database


class ProcessRefits:
    """A :class:`~accord.cases.reliability_cache.RefitWorker` on one worker process that
    reads the history of the database at ``db_url`` (one other processes can open)."""

    def __init__(self, db_url: str, *, min_answers: int) -> None:
        self._db_url = db_url
        self._min_answers = min_answers
        self._pool: ProcessPoolExecutor | None = None

    @property
    def started(self) -> bool:
        """Whether the worker process was started (for monitoring and tests)."""
        return self._pool is not None

    def start(self) -> None:
        """Start the worker process now, in the background (its interpreter and imports cost
        about a second of CPU: better at a server's start than under load at the first
        refit)."""
        self._worker()

    async def fit(self) -> FittedWeights:
        """A fit over the whole history as the worker reads it now."""
        return await asyncio.get_running_loop().run_in_executor(
            self._worker(), refit_from_database, self._db_url, self._min_answers
        )

    def close(self) -> None:
        """Stop the worker process (a refit it is running finishes first)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _worker(self) -> ProcessPoolExecutor:
        if self._pool is None:
            pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_ignore_interrupts,
            )
            with _interrupts_ignored():
                pool.submit(_started)  # the worker process is spawned here
            self._pool = pool
        return self._pool


@contextmanager
def _interrupts_ignored() -> Iterator[None]:
    """SIGINT ignored while the worker is spawned, so that it is born ignoring it (Python
    keeps a SIGINT disposition it inherits as ignored) and a Ctrl-C during its imports cannot
    interrupt it either. Only the main thread may change it; a worker spawned from another
    thread ignores it from its initializer on, once imported."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)


def _ignore_interrupts() -> None:
    """The worker ignores Ctrl-C: it reaches the terminal's whole process group, and the
    server stops its worker itself (a worker interrupted while waiting for work printed a
    ``KeyboardInterrupt`` traceback under the server's own clean shutdown)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _started() -> None:
    """What the worker runs first: nothing (its spawn is what counts)."""


def refit_from_database(db_url: str, min_answers: int) -> FittedWeights:
    """The weights fitted over every vote stored at ``db_url`` (what the worker runs)."""
    db = Database(db_url)
    try:
        return fitted_weights(CaseStore(db).votes(), min_answers)
    finally:
        db.dispose()
