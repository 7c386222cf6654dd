"""`accord dissent`: query, export and summarize dissent records."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import Annotated

import typer
from rich.console import Console

from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import report_problem
from accord.cli.tables import json_cell, listing

dissent_app = typer.Typer(no_args_is_help=True, help="Dissent records: query, export, learn.")


def _when(value: str | None, name: str) -> datetime | None:
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as exc:
        report_problem("invalid input", f"--{name}: not an ISO date/time")
        raise typer.Exit(2) from exc
    return moment if moment.tzinfo else moment.astimezone()


@dissent_app.command("list")
def dissent_list(
    agent: Annotated[str | None, typer.Option(help="Dissenting agent.")] = None,
    department: Annotated[str | None, typer.Option()] = None,
    kind: Annotated[str | None, typer.Option(help="Conflict kind.")] = None,
    strategy: Annotated[str | None, typer.Option(help="Rung or strategy that decided.")] = None,
    since: Annotated[str | None, typer.Option(help="ISO date/time (inclusive).")] = None,
    until: Annotated[str | None, typer.Option(help="ISO date/time (exclusive).")] = None,
    text: Annotated[str | None, typer.Option(help="Substring of the record.")] = None,
    jsonl: Annotated[bool, typer.Option("--jsonl", help="Export as JSON lines.")] = False,
    as_json: JsonOption = False,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """List (or export as JSONL) dissent matching every filter given."""
    filters = {
        "agent": agent,
        "department": department,
        "kind": kind,
        "strategy": strategy,
        "since": _when(since, "since"),
        "until": _when(until, "until"),
        "text": text,
    }
    accord = open_accord(config, db, keys, must_exist=True, read_only=True)
    try:
        if jsonl:
            accord.dissent.export_jsonl(sys.stdout, **filters)
            return
        records = accord.dissent.query(**filters)  # type: ignore[arg-type]
    finally:
        accord.close()
    if as_json:
        sys.stdout.write(
            json.dumps([r.model_dump(mode="json") for r in records], indent=2, ensure_ascii=False)
            + "\n"
        )
        return
    table = listing("dissent", "agent", "case", "kind", "strategy", "winning answer", "when")
    for r in records:
        table.add_row(
            r.dissent_id,
            r.agent_id,
            r.case_id,
            r.kind or "-",
            r.strategy or "-",
            json_cell(r.winning_answer),
            r.created_at.isoformat(),
        )
    Console().print(table)


@dissent_app.command("summary")
def dissent_summary(
    db: DbOption = None, keys: KeysOption = None, config: ConfigOption = None
) -> None:
    """Who dissents most, by strategy and kind, and which decisions were later overturned."""
    accord = open_accord(config, db, keys, must_exist=True, read_only=True)
    try:
        summary = accord.dissent.summary()
    finally:
        accord.close()
    sys.stdout.write(summary.model_dump_json(indent=2) + "\n")
