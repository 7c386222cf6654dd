"""Opening Accord for a command: one place that turns configuration errors into exit code 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from accord.app import Accord
from accord.cli.options import default_config
from accord.cli.problems import report_problem
from accord.errors import AccordError


def open_accord(config: Path | None, db: str | None, keys: Path | None, **kw: Any) -> Accord:
    """``Accord.open`` with the command's options; a bad config or database exits with 2."""
    try:
        return Accord.open(default_config(config), db_url=db, keys_dir=keys, **kw)
    except AccordError as exc:
        report_problem("error", exc)
        raise typer.Exit(2) from exc
