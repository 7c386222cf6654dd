"""The SQLite writers' queue across processes: an exclusive ``flock`` on a file beside the
database, taken before ``BEGIN IMMEDIATE``.

SQLite's own write lock stays what makes writes exclusive; this lock only makes a writer of
another process (another ``accord serve`` worker, a CLI command) wait in the kernel, woken
the moment the holder lets go, instead of in SQLite's busy handler, which sleeps and retries
(1 ms growing to 100 ms a time): with two server processes those sleeps were seconds of
tail latency under load (issue 13). A process that does not take it (an older Accord) still
meets SQLite's lock, as before. Linux and other POSIX systems; elsewhere it does nothing.

The wait is bounded: a holder that never lets go (a paused process mid-transaction) must not
hang every writer of every other process, so after ``wait_seconds`` (SQLite's own busy
timeout, by default) the writer goes on without this lock and meets SQLite's, whose busy
timeout then ends the wait with an error as it did before this lock existed.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from types import TracebackType

try:
    import fcntl
except ImportError:  # not POSIX: SQLite's busy handler alone queues the processes
    fcntl = None  # type: ignore[assignment]

#: What the lock file's name adds to the database file's name.
SUFFIX = "-writers.lock"
#: How long a writer waits for the lock before it goes on to SQLite's own (its busy timeout).
DEFAULT_WAIT_SECONDS = 30.0
_FIRST_POLL, _LONGEST_POLL = 0.0005, 0.005

_log = logging.getLogger(__name__)


def writer_lock_path(database: Path) -> Path:
    """The lock file beside ``database``."""
    return database.with_name(database.name + SUFFIX)


class WriterFileLock:
    """Held while a write transaction of this process is open. Not thread-safe by itself:
    the caller holds its in-process writer lock (an ``RLock``) around it, so only one thread
    enters at a time; a nested entry by that thread only counts (the lock is held once)."""

    def __init__(self, database: Path, *, wait_seconds: float = DEFAULT_WAIT_SECONDS) -> None:
        self.path = writer_lock_path(database)
        self._wait_seconds = wait_seconds
        self._fd: int | None = None
        self._depth = 0
        self._held = False
        self._unavailable = False

    @property
    def held(self) -> bool:
        """Whether this handle holds the file lock now."""
        return self._held

    def try_enter(self) -> bool:
        """Enter without waiting: True when entered (the lock is now held, or there is none to
        take), after which the caller leaves with ``__exit__``; False, holding nothing, when
        another process holds the lock."""
        fd = self._to_take()
        if fd is not None:
            if not _locked_now(fd):
                return False
            self._held = True
        self._depth += 1
        return True

    def __enter__(self) -> WriterFileLock:
        fd = self._to_take()
        if fd is not None:
            self._held = self._take(fd)
        self._depth += 1
        return self

    def _to_take(self) -> int | None:
        """The descriptor to lock when this entry is the first and there is a lock to take
        (the file opened on first use); None otherwise."""
        if self._depth > 0 or fcntl is None or self._unavailable:
            return None
        if self._fd is None:
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:  # e.g. a read-only folder: SQLite's lock alone, as before
                self._unavailable = True
        return self._fd

    def _take(self, fd: int) -> bool:
        """Take the lock, polling (briefly at first) until ``wait_seconds`` have passed;
        False when they have and the lock is still held elsewhere."""
        give_up = time.monotonic() + self._wait_seconds
        pause = _FIRST_POLL
        while not _locked_now(fd):
            if time.monotonic() >= give_up:
                _log.warning(
                    "sqlite.writer_lock_timeout: %s held for over %.0f s; writing "
                    "under SQLite's own lock",
                    self.path,
                    self._wait_seconds,
                )
                return False
            time.sleep(pause)
            pause = min(pause * 2, _LONGEST_POLL)
        return True

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._depth -= 1
        if self._depth == 0 and self._held and self._fd is not None and fcntl is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            self._held = False

    def close(self) -> None:
        """Close the file (the lock is released with it)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _locked_now(fd: int) -> bool:
    """Take the exclusive lock on ``fd`` if no one else holds it; whether it was taken."""
    assert fcntl is not None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
