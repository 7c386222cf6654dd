"""Opening Accord for a command: one place that turns configuration errors into exit code 2,
and one way to print a single stored item."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from pydantic import BaseModel

from accord.app import Accord
from accord.cli.options import default_config
from accord.cli.problems import report_problem
from accord.errors import AccordError


def open_accord(config: Path | None, db: str | None, keys: Path | None, **kw: Any) -> Accord:
    """``Accord.open`` with the command's options; a bad config or database exits with 2."""
    try:
        return Accord.open(default_config(config), db_url=db, keys_dir=keys, **kw)
    except AccordError as exc:
        missing_key = exc.code == "crypto.key_not_found"
        hint = " (name the key folder with --keys DIR or ACCORD_KEYS)" if missing_key else ""
        report_problem("error", f"{exc}{hint}")
        raise typer.Exit(2) from exc


def print_one(
    config: Path | None, db: str | None, keys: Path | None, fetch: Callable[[Accord], BaseModel]
) -> None:
    """Print what ``fetch`` reads from an existing database as JSON; not found exits with 1."""
    accord = open_accord(config, db, keys, must_exist=True, read_only=True)
    try:
        found = fetch(accord)
    except AccordError as exc:
        report_problem("error", exc)
        raise typer.Exit(1) from exc
    finally:
        accord.close()
    sys.stdout.write(found.model_dump_json(indent=2) + "\n")
