"""Boundary fixtures: a migrated database, a signed ledger, a store and a service on them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from accord.boundary import BoundaryService, BoundaryStore, ProbeRegistry
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger
from accord.store import Database, open_database

from ._builders import FixedProbe, erp_hint


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.dispose()


@pytest.fixture
def signer() -> Ed25519Signer:
    return Ed25519Signer.from_seed(bytes(range(32)))


@pytest.fixture
def ledger(db: Database, signer: Ed25519Signer, frozen_clock: FrozenClock) -> Ledger:
    return Ledger(db, signer, frozen_clock, checkpoint_every=4)


@pytest.fixture
def store(db: Database, ledger: Ledger) -> BoundaryStore:
    return BoundaryStore(db, ledger.append_within)


@pytest.fixture
def erp() -> FixedProbe:
    return FixedProbe("erp.currency", "USD", evidence={"row": {"currency": "USD", "rate": 1.08}})


@pytest.fixture
def probes(erp: FixedProbe) -> ProbeRegistry:
    registry = ProbeRegistry()
    registry.register(erp)
    return registry


@pytest.fixture
def service(
    store: BoundaryStore, probes: ProbeRegistry, frozen_clock: FrozenClock
) -> BoundaryService:
    return BoundaryService(
        store, probes, frozen_clock, hints={"invoice.total:total.currency": erp_hint()}
    )
