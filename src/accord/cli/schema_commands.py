"""`accord schema settle|dcp`: the JSON Schemas of Accord's inputs and records."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from accord.cases import settle_file_schema
from accord.cli.problems import report_problem
from accord.dcp07 import schema_files, stale_schema_files, write_schema_files

schema_app = typer.Typer(no_args_is_help=True, help="Print the JSON Schemas of Accord's inputs.")


@schema_app.command("settle")
def settle_schema() -> None:
    """The format `accord settle` reads (one case, an array of cases, or JSON Lines)."""
    sys.stdout.write(json.dumps(settle_file_schema(), indent=2, ensure_ascii=False) + "\n")


@schema_app.command("dcp")
def dcp_schemas(
    out: Annotated[
        Path, typer.Option("--out", help="Directory to write dcp07/*.schema.json under.")
    ] = Path("schemas"),
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 if a file differs.")
    ] = False,
) -> None:
    """The JSON Schemas of Accord's DCP-07 records, generated from their models."""
    files = schema_files()
    if check:
        stale = stale_schema_files(out, files)
        if stale:
            report_problem("stale", f"{', '.join(stale)} (run `accord schema dcp --out {out}`)")
            raise typer.Exit(1)
        sys.stdout.write(f"{len(files)} schema file(s) under {out} are up to date\n")
        return
    for path in write_schema_files(out, files):
        sys.stdout.write(f"wrote {path}\n")
