"""Disputes fixtures: a migrated database, a signing ledger, a case store and a settler."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.disputes import CaseStore, DecideSettings, Settler
from accord.ledger import Ledger, TrustRoot
from accord.store import Database, open_database


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.dispose()


@pytest.fixture
def signer() -> Ed25519Signer:
    return Ed25519Signer.from_seed(bytes(range(32)))


@pytest.fixture
def trusted(signer: Ed25519Signer) -> TrustRoot:
    return TrustRoot(signer.kid, signer.public_key)


@pytest.fixture
def ledger(db: Database, signer: Ed25519Signer, frozen_clock: FrozenClock) -> Ledger:
    return Ledger(db, signer, frozen_clock, checkpoint_every=4)


@pytest.fixture
def store(db: Database) -> CaseStore:
    return CaseStore(db)


@pytest.fixture
def settler(ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock) -> Settler:
    return Settler(ledger=ledger, store=store, clock=frozen_clock, settings=DecideSettings())
