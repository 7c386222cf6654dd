"""Fixtures shared by every room's tests."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from accord.clock import FrozenClock

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_dir() -> Path | None:
    """The workplace's shared/ folder (specs, vectors, datasets), if present."""
    explicit = os.environ.get("ACCORD_SHARED_DIR")
    candidates = [Path(explicit)] if explicit else []
    candidates.append(REPO_ROOT.parent / "shared")
    for candidate in candidates:
        if (candidate / "dcp").is_dir():
            return candidate
    return None


@pytest.fixture(scope="session")
def dcp_vectors_dir() -> Path:
    """``shared/dcp/vectors``; tests that need it skip with a visible reason where it is absent."""
    base = shared_dir()
    if base is None:
        pytest.skip("../shared/dcp is absent (set ACCORD_SHARED_DIR): DCP vector tests not run")
    return base / "dcp" / "vectors"


def postgres_base_url() -> str | None:
    """``ACCORD_TEST_POSTGRES_URL`` (CI always sets it; locally PostgreSQL tests then skip)."""
    return os.environ.get("ACCORD_TEST_POSTGRES_URL") or None


@contextmanager
def fresh_database_url(engine: str, directory: Path) -> Iterator[str]:
    """A fresh, empty database URL: a SQLite file in ``directory``, or a private schema on
    PostgreSQL (dropped afterwards)."""
    if engine == "sqlite":
        yield f"sqlite:///{directory / 'accord.db'}"
        return
    base = postgres_base_url()
    if base is None:
        pytest.skip("ACCORD_TEST_POSTGRES_URL is not set: PostgreSQL variant not run")
    import psycopg
    from sqlalchemy.engine import make_url

    schema = f"t_{uuid.uuid4().hex[:16]}"
    libpq = make_url(base).set(drivername="postgresql").render_as_string(hide_password=False)
    # No try/except: an unreachable server must fail the test loudly, never skip it.
    with psycopg.connect(libpq, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database URL: a SQLite file, or a private schema on PostgreSQL."""
    with fresh_database_url(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def frozen_clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
