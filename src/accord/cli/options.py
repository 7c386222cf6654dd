"""Options shared by every command."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # the config model imports much of the library; a command's --help needs none
    from accord.config import LoadedConfig

DbOption = Annotated[
    str | None,
    typer.Option("--db", help="Database URL (default: $ACCORD_DB, then sqlite:///accord.db)."),
]
KeysOption = Annotated[
    Path | None,
    typer.Option("--keys", help="Key directory (default: $ACCORD_KEYS, then the config's)."),
]
ConfigOption = Annotated[
    Path | None,
    typer.Option("--config", "-c", help="accord.yaml (default: ./accord.yaml if present)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def default_config(path: Path | None) -> Path | None:
    if path is not None:
        return path
    candidate = Path("accord.yaml")
    return candidate if candidate.is_file() else None


def key_directory(loaded: LoadedConfig, keys: Path | None) -> Path:
    """The key folder a command uses: ``--keys`` > ``ACCORD_KEYS`` > the config's (as
    ``Accord.open`` decides)."""
    return Path(keys or os.environ.get("ACCORD_KEYS") or loaded.keys_directory())
