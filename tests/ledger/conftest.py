"""Ledger fixtures: a migrated database, a service key and a ledger on it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
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


def case_events(n: int) -> list[tuple[str, dict[str, object]]]:
    kinds = [
        "dispute_opened",
        "dispute_evidence_submitted",
        "dispute_escalated",
        "dispute_resolved",
    ]
    return [
        (kinds[i % 4], {"case_id": f"case:{i // 4}", "step": i, "agents": ["agent:a", "agent:b"]})
        for i in range(n)
    ]
