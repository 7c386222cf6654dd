"""Tier fixtures: a migrated database, a signing ledger and the tier world on it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger
from accord.store import Database, open_database

from ._human_panel import Panel
from ._world import World


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.dispose()


@pytest.fixture
def ledger(db: Database, frozen_clock: FrozenClock) -> Ledger:
    return Ledger(db, Ed25519Signer.from_seed(bytes(range(32))), frozen_clock)


@pytest.fixture
def world(db: Database, ledger: Ledger, frozen_clock: FrozenClock) -> World:
    return World(db, ledger, frozen_clock)


@pytest.fixture
def panel(db: Database, ledger: Ledger, frozen_clock: FrozenClock) -> Panel:
    """The dispute service with an approval queue and human panel members."""
    return Panel(db, ledger, frozen_clock)
