"""Fixtures shared by every room's tests.

Nothing here skips: a fresh clone runs every test. The DCP vectors live in ``tests/vectors/dcp``;
PostgreSQL is ``ACCORD_TEST_POSTGRES_URL`` when it is set (CI: the machine's server) and otherwise
a throwaway PostgreSQL 16 started once per session from the ``pgserver`` wheel.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger, TrustRoot
from accord.store import Database, open_database

REPO_ROOT = Path(__file__).resolve().parents[1]

# On a busy shared machine Hypothesis can be slow to *generate* inputs, or an example slow to run;
# neither is a failure of the code under test (the property assertions still fail as before).
settings.register_profile(
    "accord", suppress_health_check=[HealthCheck.too_slow], deadline=None, print_blob=True
)
settings.load_profile("accord")
DCP_VECTORS = REPO_ROOT / "tests" / "vectors" / "dcp"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark what `make test-quick` leaves out: PostgreSQL variants and browser tests.

    ``make test`` runs everything; the marks only let the inner loop choose.
    """
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        fixtures = getattr(item, "fixturenames", ())
        if "postgresql" in params.values() or "postgres_server_url" in fixtures:
            item.add_marker(pytest.mark.postgres)
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def dcp_vectors_dir() -> Path:
    """The DCP reference project's vectors, copied into the repository (Apache-2.0)."""
    if not (DCP_VECTORS / "interop_vectors.json").is_file():
        pytest.fail(f"the DCP vectors are missing from {DCP_VECTORS}: the checkout is incomplete")
    return DCP_VECTORS


def postgres_base_url() -> str | None:
    """``ACCORD_TEST_POSTGRES_URL`` when set (CI sets it to the machine's server)."""
    return os.environ.get("ACCORD_TEST_POSTGRES_URL") or None


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    """A PostgreSQL server for the session: the configured one, or a throwaway ``pgserver``.

    Started only when a PostgreSQL test runs; stopped and deleted when the session ends. A server
    that cannot be started fails the tests that need it, never skips them.
    """
    configured = postgres_base_url()
    if configured is not None:
        yield configured
        return
    # Short path: the server's Unix socket lives in this folder (sun_path is ~107 bytes).
    pgdata = Path(tempfile.mkdtemp(prefix="accord-pg-"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset on headless machines
        try:
            import pgserver
        except ImportError:  # pragma: no cover - pgserver is a test dependency
            pytest.fail("ACCORD_TEST_POSTGRES_URL is unset and pgserver is not installed")
        server = pgserver.get_server(pgdata, cleanup_mode="delete")
    try:
        uri: str = server.get_uri()
        yield uri.replace("postgresql://", "postgresql+psycopg://", 1)
    finally:
        server.cleanup()
        shutil.rmtree(pgdata, ignore_errors=True)


@contextmanager
def fresh_database_url(
    engine: str, directory: Path, request: pytest.FixtureRequest
) -> Iterator[str]:
    """A fresh, empty database URL: a SQLite file in ``directory``, or a private schema on
    the session's PostgreSQL server (dropped afterwards)."""
    if engine == "sqlite":
        yield f"sqlite:///{directory / 'accord.db'}"
        return
    base: str = request.getfixturevalue("postgres_server_url")
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
    with fresh_database_url(request.param, tmp_path, request) as url:
        yield url


@pytest.fixture
def frozen_clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 11, 29, 12, 0, tzinfo=UTC))


# --- a migrated database with a signing ledger (rooms whose conftest does not say otherwise)


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
