"""Case fixtures: a case store and a settler over the root conftest's database and ledger."""

from __future__ import annotations

import pytest

from accord.cases import CaseStore, Settler, TriageSettings
from accord.clock import FrozenClock
from accord.ledger import Ledger
from accord.store import Database


@pytest.fixture
def store(db: Database) -> CaseStore:
    return CaseStore(db)


@pytest.fixture
def settler(ledger: Ledger, store: CaseStore, frozen_clock: FrozenClock) -> Settler:
    return Settler(ledger=ledger, store=store, clock=frozen_clock, settings=TriageSettings())
