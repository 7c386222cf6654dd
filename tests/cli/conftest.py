"""CLI fixtures: run `accord` in a scratch directory with its own database and keys."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from accord.cli.main import app

Run = Callable[..., Result]


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Run:
    """Invoke the CLI inside ``tmp_path`` with no ACCORD_* variables leaking in."""
    monkeypatch.chdir(tmp_path)
    for name in ("ACCORD_DB", "ACCORD_KEYS", "ACCORD_KEY_PASSPHRASE", "ACCORD_REVIEWER_KEY"):
        monkeypatch.delenv(name, raising=False)
    runner = CliRunner()

    def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
        return runner.invoke(
            app, list(args), env={"COLUMNS": "200", **(env or {})}, catch_exceptions=False
        )

    return invoke
