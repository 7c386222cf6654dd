"""A real server (uvicorn in a thread, on loopback) around a SQLite ``Accord``, and the Debian
Chromium driven headless by Playwright. Screenshots land in ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from accord.api import ApiKeyStore, create_app
from accord.app import Accord
from accord.clock import FrozenClock
from tests.api._reviewers import register_reviewers, reviewer_config
from tests.conftest import REPO_ROOT

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = REPO_ROOT / "test-artifacts"


@pytest.fixture
def site_accord(tmp_path: Path, frozen_clock: FrozenClock) -> Iterator[Accord]:
    config_dir = tmp_path / "config"
    config_dir.mkdir()
    accord = Accord.open(
        reviewer_config(config_dir),
        db_url=f"sqlite:///{tmp_path / 'site.db'}",
        keys_dir=tmp_path / "keys",
        clock=frozen_clock,
    )
    register_reviewers(accord)
    yield accord
    accord.close()


@pytest.fixture
def site_keys(site_accord: Accord) -> ApiKeyStore:
    return ApiKeyStore(site_accord.ledger, site_accord.clock)


@pytest.fixture
def base_url(site_accord: Accord) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_app(site_accord, sweep_every=None)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:  # waiting for the socket to bind, not for time to pass
        if time.monotonic() > deadline or not thread.is_alive():
            raise AssertionError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=30)


@pytest.fixture
def chromium() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is absent (make test installs it): browser tests not run")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def sign_in(browser: Any, base_url: str, token: str) -> Any:
    """A new laptop-sized page signed in with ``token``, on the queue."""
    from playwright.sync_api import expect

    page = browser.new_context(viewport={"width": 1366, "height": 800}).new_page()
    page.goto(f"{base_url}/signin")
    page.get_by_label("Reviewer key").fill(token)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{base_url}/queue")
    return page


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings on ``page``, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']]}"
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]
