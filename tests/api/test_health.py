"""Liveness and readiness."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import text

from accord.app import Accord
from accord.store.migrate import HEAD_REVISION


def test_health_answers_without_a_key(client: TestClient[Litestar]) -> None:
    answer = client.get("/health")
    assert answer.status_code == 200
    assert answer.json()["status"] == "ok"


def test_ready_when_the_database_answers_at_the_current_schema(
    client: TestClient[Litestar],
) -> None:
    answer = client.get("/ready")
    assert answer.status_code == 200
    assert answer.json()["status"] == "ready"


def test_not_ready_when_the_schema_is_behind_the_code(
    client: TestClient[Litestar], accord: Accord
) -> None:
    with accord.db.write() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0004_boundaries'"))
    answer = client.get("/ready")
    assert answer.status_code == 503
    assert f"expected {HEAD_REVISION}" in answer.json()["detail"]


def test_not_ready_when_the_database_has_no_schema_record(
    client: TestClient[Litestar], accord: Accord
) -> None:
    with accord.db.write() as conn:
        conn.execute(text("DROP TABLE alembic_version"))
    answer = client.get("/ready")
    assert answer.status_code == 503
