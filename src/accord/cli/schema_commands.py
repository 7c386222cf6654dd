"""`accord schema settle`: the JSON Schema of the settle file format."""

from __future__ import annotations

import json
import sys

import typer

from accord.disputes.settle_format import settle_file_schema

schema_app = typer.Typer(no_args_is_help=True, help="Print the JSON Schemas of Accord's inputs.")


@schema_app.command("settle")
def settle_schema() -> None:
    """The format `accord settle` reads (one case, an array of cases, or JSON Lines)."""
    sys.stdout.write(json.dumps(settle_file_schema(), indent=2, ensure_ascii=False) + "\n")
