"""Fixtures for the approval queue tests: a migrated database, a queue and its event log."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Connection

from accord.approvals import (
    ApprovalItem,
    ApprovalQueue,
    Principal,
    Reviewer,
    TimeoutPolicy,
    WaitForever,
)
from accord.approvals.policies import Risk
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.store import Database, open_database


class EventLog:
    """Collects what the queue hands to ``on_event``, one list per transaction."""

    def __init__(self) -> None:
        self.batches: list[list[tuple[str, dict[str, Any]]]] = []
        self.in_transaction: list[bool] = []

    def __call__(self, conn: Connection, records: list[tuple[str, dict[str, Any]]]) -> None:
        self.in_transaction.append(conn.in_transaction())
        self.batches.append(list(records))

    @property
    def kinds(self) -> list[str]:
        return [kind for batch in self.batches for kind, _ in batch]

    def records(self, kind: str) -> list[dict[str, Any]]:
        return [record for batch in self.batches for k, record in batch if k == kind]


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.dispose()


@pytest.fixture
def event_log() -> EventLog:
    return EventLog()


@pytest.fixture
def queue(db: Database, frozen_clock: FrozenClock, event_log: EventLog) -> ApprovalQueue:
    return ApprovalQueue(db, frozen_clock, on_event=event_log)


def reviewer(principal_id: str, *roles: str) -> Reviewer:
    """A reviewer holding ``roles``, deciding with its own (test) reviewer key."""
    seed = hashlib.sha256(principal_id.encode()).digest()
    return Reviewer(
        Principal(principal_id=principal_id, roles=frozenset(roles)),
        Ed25519Signer.from_seed(seed),
    )


@pytest.fixture
def alice() -> Reviewer:
    return reviewer("user:alice", "reviewer")


def ask(
    queue: ApprovalQueue,
    *,
    policy: TimeoutPolicy | None = None,
    risk: Risk = "medium",
    case_id: str = "case:1",
) -> ApprovalItem:
    """Queue a typical two-agent disagreement."""
    return queue.request(
        case_id=case_id,
        title="Total of invoice 4411",
        summary="billing says 1200, audit says 1450",
        positions=[
            {"agent": "agent:billing", "answer": 1200, "confidence": 0.9, "reasoning": "sum"},
            {"agent": "agent:audit", "answer": 1450, "confidence": 0.7, "reasoning": "tax"},
        ],
        analysis="tier 1: confidence gap below threshold; judge: ambiguous",
        options=["agent:billing", "agent:audit", "approve", "deny"],
        risk=risk,
        policy=policy or WaitForever(),
    )
