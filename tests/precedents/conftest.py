"""Precedent fixtures: a draft factory, a panel lead's key, a registry on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.precedents import BundleDraft, PrecedentSearch, PrecedentStore
from accord.store import Database, open_database

Draft = Callable[..., BundleDraft]


def draft_data(**changes: Any) -> dict[str, Any]:
    """A valid draft as plain JSON data; keyword arguments replace top-level fields, and
    ``conditions`` / ``barred`` / ``types`` / ``dispute_type`` the nested ones."""
    dispute_type = changes.pop("dispute_type", "resource_conflict")
    data: dict[str, Any] = {
        "dispute_id": "disp:019ad0f4-1111-7000-8000-000000000001",
        "resolution_id": "res:019ad0f4-2222-7000-8000-000000000002",
        "classification": {
            "dispute_type": dispute_type,
            "resource_category": "gpu",
            "resolution_pattern": "time_sharing",
            "tags": ["scheduling"],
        },
        "summary": {
            "facts": "Two agents booked the same GPU.\nBoth had a deadline.",
            "holding": "Split the GPU by the hour.",
            "rationale": "Neither deadline outranked the other.",
            "dissent": None,
        },
        "applicability": {
            "applicable_dispute_types": changes.pop("types", [dispute_type]),
            "applicable_conditions": changes.pop("conditions", ["shared_gpu"]),
            "inapplicable_conditions": changes.pop("barred", []),
        },
        "supersedes": [],
        "authority_level": "direct_negotiation",
        "dispute_record_hash": "sha256:" + "a" * 64,
        "resolution_record_hash": "sha256:" + "b" * 64,
        "objections": [],
    }
    data.update(changes)
    return data


@pytest.fixture
def draft() -> Draft:
    def make(**changes: Any) -> BundleDraft:
        return BundleDraft.model_validate(draft_data(**changes))

    return make


@pytest.fixture
def lead() -> Ed25519Signer:
    """The panel lead's key."""
    return Ed25519Signer.from_seed(bytes(range(32)))


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = open_database(database_url)
    yield database
    database.dispose()


@pytest.fixture
def store(db: Database, frozen_clock: FrozenClock) -> PrecedentStore:
    return PrecedentStore(db, frozen_clock)


@pytest.fixture
def search(db: Database) -> PrecedentSearch:
    return PrecedentSearch(db)
