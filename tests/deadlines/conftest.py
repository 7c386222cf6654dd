"""Fixtures for the deadline mechanism: a migrated database and a recording handler."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from datetime import datetime

import pytest
from sqlalchemy import Connection

from accord.deadlines import Deadline, Handled
from accord.store import Database, open_database

KIND = "test_ping"


class Recorder:
    """A handler that records every deadline it handled (thread-safe)."""

    def __init__(self, outcome: str = "pinged") -> None:
        self.outcome = outcome
        self.handled: list[Deadline] = []
        self._lock = threading.Lock()

    def __call__(self, conn: Connection, deadline: Deadline, now: datetime) -> Handled:
        with self._lock:
            self.handled.append(deadline)
        return Handled(outcome=self.outcome)

    def counts(self) -> Counter[str]:
        return Counter(d.deadline_id for d in self.handled)


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.dispose()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()
