"""An ``Accord`` on a real database (SQLite and PostgreSQL), the app around it, and keys."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from accord.api import ApiKeyStore, create_app
from accord.app import Accord
from accord.cases import Case
from accord.clock import FrozenClock

from ._reviewers import register_reviewers, reviewer_config

REFUND = [
    {"agent": "agent:billing", "output": "approve", "confidence": 0.7, "reasoning": "loyal"},
    {"agent": "agent:audit", "output": "reject", "confidence": 0.65, "reasoning": "chargebacks"},
]


@dataclass
class Tokens:
    agent: str
    reviewer: str
    auditor: str
    admin: str


@pytest.fixture
def accord(database_url: str, tmp_path: Path, frozen_clock: FrozenClock) -> Iterator[Accord]:
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    opened = Accord.open(
        reviewer_config(config_dir),
        db_url=database_url,
        keys_dir=tmp_path / "keys",
        clock=frozen_clock,
    )
    register_reviewers(opened)
    yield opened
    opened.close()


@pytest.fixture
def keys(accord: Accord) -> ApiKeyStore:
    return ApiKeyStore(accord.ledger, accord.clock)


@pytest.fixture
def tokens(keys: ApiKeyStore) -> Tokens:
    return Tokens(
        agent=keys.create("agent", agent_id="agent:billing")[1],
        reviewer=keys.create("reviewer", principal_id="human:treasurer")[1],
        auditor=keys.create("auditor")[1],
        admin=keys.create("admin")[1],
    )


@pytest.fixture
def app(accord: Accord) -> Litestar:
    return create_app(accord, sweep_every=None, max_body_bytes=64_000)


@pytest.fixture
def client(app: Litestar) -> Iterator[TestClient[Litestar]]:
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def escalated(accord: Accord) -> Case:
    """A refund the policy sends to people (a pending approval item)."""
    case = accord.settle("Refund 18,000 to customer 5521", REFUND, task_type="refunds")
    assert case.approval_item_id is not None
    return case


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
