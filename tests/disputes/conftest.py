"""Dispute service fixtures: ``Disputes`` over the disputes room's ledger (SQLite and
PostgreSQL), a filing factory, a sweeper wired with the dispute port."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accord.app.deadline_sweep import deadline_sweep
from accord.approvals import ApprovalQueue
from accord.clock import FrozenClock
from accord.deadlines import DeadlineSweep
from accord.disputes import Disputes
from accord.ledger import Ledger
from accord.precedents import Precedents, PrecedentSearch, PrecedentStore
from accord.store import Database

File = Callable[..., dict[str, Any]]


def evidence(n: int = 1, **changes: Any) -> dict[str, Any]:
    return {
        "evidence_type": "log",
        "reference": f"log:{n}",
        "description": f"booking log {n}",
        "content": {"booked": n},
        **changes,
    }


def filing_data(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "dispute_type": "resource_conflict",
        "severity": "medium",
        "complainant": "agent-a",
        "respondents": ["agent-b"],
        "subject": "both booked the GPU for tonight",
        "evidence": [evidence(1)],
    }
    data.update(changes)
    return data


@pytest.fixture
def filing() -> File:
    return filing_data


@pytest.fixture
def precedents(db: Database, frozen_clock: FrozenClock, ledger: Ledger) -> Precedents:
    return Precedents(PrecedentStore(db, frozen_clock), PrecedentSearch(db), ledger.signer)


@pytest.fixture
def disputes(ledger: Ledger, frozen_clock: FrozenClock, precedents: Precedents) -> Disputes:
    return Disputes(ledger, frozen_clock, precedents=precedents)


@pytest.fixture
def sweep(db: Database, frozen_clock: FrozenClock, disputes: Disputes) -> DeadlineSweep:
    return deadline_sweep(
        db, frozen_clock, ApprovalQueue(db, frozen_clock), disputes=disputes.deadlines
    )
