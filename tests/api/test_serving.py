"""What `accord serve` hands its workers: each opens its own Accord from the environment,
and sign-ins started on one worker hold on another (shared CSRF secret and session files)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from accord.api import ApiKeyStore
from accord.api.serving import app_from_environment, serve_environment
from accord.app import Accord
from accord.cases.refit_process import ProcessRefits
from accord.cli.demo import demo_config
from tests.api.conftest import REFUND
from tests.api.test_reviewer_page import _csrf


@pytest.fixture(autouse=True)
def _unfrozen_afterwards() -> Iterator[None]:
    """A worker's startup freezes its heap (``freeze_startup_heap``); not the test process's."""
    yield
    gc.unfreeze()


def test_a_started_worker_moves_its_startup_heap_out_of_the_collectors_reach(
    database_url: str, tmp_path: Path
) -> None:
    gc.unfreeze()
    env = serve_environment(config=None, db=database_url, keys=str(tmp_path), sweep_every=None)
    app = app_from_environment(env)
    assert gc.get_freeze_count() == 0  # built, not started
    with TestClient(app) as client:
        assert gc.get_freeze_count() > 10_000  # the modules, the app and the opened Accord
        assert client.get("/ready").status_code == 200


def test_a_worker_refits_reliability_in_a_worker_process_and_stops_it_at_shutdown(
    database_url: str, tmp_path: Path
) -> None:
    env = serve_environment(config=None, db=database_url, keys=str(tmp_path), sweep_every=None)
    app = app_from_environment(env)
    refits = app.state["accord"].reliability.refits
    assert isinstance(refits, ProcessRefits)
    with TestClient(app) as client:
        assert client.get("/health").status_code == 200
    assert app.state["accord"].reliability.refits is None  # closed with the Accord


def test_two_workers_share_sign_ins_and_csrf_tokens(database_url: str, tmp_path: Path) -> None:
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    config = demo_config(config_dir)
    keys_dir = tmp_path / "keys"
    setup = Accord.open(config, db_url=database_url, keys_dir=keys_dir)
    _, token = ApiKeyStore(setup.ledger, setup.clock).create("reviewer", principal_id="human:ada")
    setup.close()
    env = serve_environment(
        config=str(config),
        db=database_url,
        keys=str(keys_dir),
        sweep_every=None,
        session_dir=str(tmp_path / "sessions"),
    )
    (tmp_path / "sessions").mkdir()
    with (
        TestClient(app_from_environment(env)) as one,
        TestClient(app_from_environment(env)) as two,
    ):
        form = one.get("/signin").text
        two.cookies = one.cookies
        signed = two.post("/signin", data={"key": token, "_csrf_token": _csrf(form)})
        assert signed.status_code == 200
        one.cookies = two.cookies
        assert "human:ada" in one.get("/queue").text


def test_without_a_sweep_interval_no_sweeper_runs(database_url: str, tmp_path: Path) -> None:
    env = serve_environment(config=None, db=database_url, keys=str(tmp_path), sweep_every=None)
    app = app_from_environment(env)
    assert app.state["sweeper"] is None
    with TestClient(app) as client:
        assert client.get("/ready").status_code == 200


def test_library_logs_during_a_request_carry_its_request_id(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    config = demo_config(config_dir)
    env = serve_environment(
        config=str(config), db=database_url, keys=str(tmp_path / "keys"), sweep_every=None
    )
    app = app_from_environment(env)
    accord = app.state["accord"]
    token = ApiKeyStore(accord.ledger, accord.clock).create("admin")[1]
    body = {"subject": "Refund 5", "task_type": "refunds", "positions": REFUND}
    with TestClient(app) as client:
        answer = client.post(
            "/api/v1/settle",
            json=body,
            headers={"Authorization": f"Bearer {token}", "X-Request-ID": "req-77"},
        )
    assert answer.status_code == 200
    logged = capsys.readouterr().err
    queued = [line for line in logged.splitlines() if "strategy_queued" in line]
    assert queued
    assert all("request_id='req-77'" in line for line in queued)
