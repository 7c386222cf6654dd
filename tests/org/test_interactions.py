"""The interaction log (R32): who interacted with whom and when, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, inspect, select

from accord.errors import ValidationError
from accord.org.interaction_store import InteractionLog
from accord.org.interactions import Interaction
from accord.store import Database, open_database
from accord.store.tables import agent_interactions

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture
def log(database_url: str) -> Iterator[InteractionLog]:
    db = open_database(database_url)
    yield InteractionLog(db)
    db.dispose()


def rows(db: Database) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(agent_interactions)).scalar_one())


def test_r32_the_migration_creates_the_interaction_log(log: InteractionLog) -> None:
    with log.db.read() as conn:
        assert inspect(conn).has_table("agent_interactions")
        indexes = {i["name"] for i in inspect(conn).get_indexes("agent_interactions")}
    assert "ix_agent_interactions_pair" in indexes


def test_r32_two_agents_that_never_interacted_have_no_last_interaction(
    log: InteractionLog,
) -> None:
    assert log.last_interaction("agent:a", "agent:b") is None


def test_r32_the_last_interaction_is_the_latest_in_either_direction(log: InteractionLog) -> None:
    log.record("agent:b", "agent:a", NOW - timedelta(days=40))
    log.record("agent:a", "agent:b", NOW - timedelta(days=3, microseconds=5))
    log.record("agent:b", "agent:a", NOW - timedelta(days=10))
    log.record("agent:a", "agent:c", NOW)
    latest = NOW - timedelta(days=3, microseconds=5)
    assert log.last_interaction("agent:a", "agent:b") == latest
    assert log.last_interaction("agent:b", "agent:a") == latest
    assert rows(log.db) == 4


def test_r32_times_come_back_as_aware_utc_instants(log: InteractionLog) -> None:
    other_zone = datetime(2026, 11, 29, 14, 0, tzinfo=UTC).astimezone(
        datetime.now(UTC).astimezone().tzinfo
    )
    log.record("agent:a", "agent:b", other_zone)
    found = log.last_interaction("agent:a", "agent:b")
    assert found == other_zone
    assert found is not None
    assert found.utcoffset() == timedelta(0)


def test_r32_recording_returns_the_interaction_as_an_ordered_pair(log: InteractionLog) -> None:
    assert log.record("agent:z", "agent:a", NOW) == Interaction(
        agent_a="agent:a", agent_b="agent:z", at=NOW
    )


@pytest.mark.parametrize(
    ("a", "b", "at"),
    [
        ("agent:a", "agent:a", NOW),
        ("", "agent:b", NOW),
        ("agent:a", "agent:b", datetime(2026, 11, 29, 12, 0)),  # naive
    ],
)
def test_r32_an_invalid_interaction_is_refused_and_nothing_is_written(
    log: InteractionLog, a: str, b: str, at: datetime
) -> None:
    with pytest.raises(ValidationError) as excinfo:
        log.record(a, b, at)
    assert excinfo.value.code == "org.invalid_interaction"
    assert excinfo.value.context["rule"]
    assert rows(log.db) == 0
