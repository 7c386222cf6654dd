"""Objection fixtures: ``Disputes`` over the disputes room's ledger (SQLite and PostgreSQL)
and the one sweep with compliance deadlines registered."""

from __future__ import annotations

import pytest

from accord.app.deadline_sweep import deadline_sweep
from accord.approvals import ApprovalQueue
from accord.clock import FrozenClock
from accord.deadlines import DeadlineSweep
from accord.disputes import Disputes
from accord.ledger import Ledger
from accord.store import Database


@pytest.fixture
def disputes(ledger: Ledger, frozen_clock: FrozenClock) -> Disputes:
    return Disputes(ledger, frozen_clock)


@pytest.fixture
def sweep(db: Database, frozen_clock: FrozenClock, disputes: Disputes) -> DeadlineSweep:
    return deadline_sweep(
        db,
        frozen_clock,
        ApprovalQueue(db, frozen_clock),
        disputes=disputes.deadlines,
        compliance=disputes.compliance,
    )
