"""Fixtures for the end-to-end tests: Accord instances on a fresh database, and the CLI."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from accord import Accord
from accord.cli.main import app
from accord.clock import Clock, FrozenClock

OpenAccord = Callable[..., Accord]
RunCli = Callable[..., Result]


@pytest.fixture
def open_accord(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> Iterator[OpenAccord]:
    """``open_accord(config, **injected)``: ``Accord.open`` on this test's database and key
    directory; ``injected`` parts (``decision_port=``, ``model=`` …) go to ``Accord.open``.

    Every call opens another instance (another "process") on the same database; all are
    closed after the test.
    """
    opened: list[Accord] = []

    def factory(config: Path, *, clock: Clock | None = None, **injected: Any) -> Accord:
        accord = Accord.open(
            config,
            db_url=database_url,
            keys_dir=tmp_path / "keys",
            clock=clock or frozen_clock,
            **injected,
        )
        opened.append(accord)
        return accord

    yield factory
    for accord in opened:
        accord.close()


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> RunCli:
    """Invoke ``accord`` inside ``tmp_path`` with no ACCORD_* variables leaking in."""
    monkeypatch.chdir(tmp_path)
    for name in ("ACCORD_DB", "ACCORD_KEYS", "ACCORD_KEY_PASSPHRASE", "ACCORD_REVIEWER_KEY"):
        monkeypatch.delenv(name, raising=False)
    runner = CliRunner()

    def invoke(*args: str) -> Result:
        return runner.invoke(app, list(args), env={"COLUMNS": "200"}, catch_exceptions=False)

    return invoke
