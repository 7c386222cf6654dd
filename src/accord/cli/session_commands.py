"""`accord session close` and `accord boundaries pending | show | resolve`: the hand-off
from a session that ends with open disagreements to the session that settles them."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from accord.cli.opening import open_accord, print_one
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import report_problem
from accord.errors import AccordError, ConfigError

session_app = typer.Typer(no_args_is_help=True, help="Close a session into boundaries.")
boundaries_app = typer.Typer(no_args_is_help=True, help="Disagreement boundaries for successors.")


@session_app.command("close")
def session_close(
    session_id: str,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Turn every unresolved case of SESSION_ID into a disagreement boundary."""
    accord = open_accord(config, db, keys)
    try:
        boundaries = accord.close_session(session_id)
    except AccordError as exc:
        report_problem("invalid input", exc)
        raise typer.Exit(2) from exc
    finally:
        accord.close()
    if as_json:
        sys.stdout.write(
            json.dumps([b.model_dump(mode="json") for b in boundaries], indent=2) + "\n"
        )
        return
    table = Table("boundary", "case", "status", "crux", "tie-breaker", "size vs transcript")
    for b in boundaries:
        table.add_row(
            b.boundary_id,
            b.case_id,
            b.status,
            (b.crux.statement if b.crux else b.marker or "-")[:60],
            b.tie_breaker.probe if b.tie_breaker else "-",
            f"{b.size_bytes:,} / {b.transcript_bytes:,} B ({b.budget_ratio:.1%})",
        )
    Console().print(table)
    Console().print(f"{len(boundaries)} boundar{'y' if len(boundaries) == 1 else 'ies'} recorded")


@boundaries_app.command("pending")
def boundaries_pending(
    session: Annotated[str | None, typer.Option()] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Boundaries a successor can settle with one probe."""
    accord = open_accord(config, db, keys, must_exist=True, read_only=True)
    try:
        pending = accord.boundaries.pending(session)
    finally:
        accord.close()
    if as_json:
        sys.stdout.write(json.dumps([b.model_dump(mode="json") for b in pending], indent=2) + "\n")
        return
    table = Table("boundary", "session", "case", "probe", "crux")
    for b in pending:
        table.add_row(
            b.boundary_id,
            b.session_id,
            b.case_id,
            b.tie_breaker.probe if b.tie_breaker else "-",
            (b.crux.statement if b.crux else "-")[:70],
        )
    Console().print(table)


@boundaries_app.command("show")
def boundaries_show(
    boundary_id: str, db: DbOption = None, keys: KeysOption = None, config: ConfigOption = None
) -> None:
    """One boundary as JSON (crux, position map, tie-breaker, consensus, digest)."""
    print_one(config, db, keys, lambda accord: accord.boundaries.get(boundary_id))


@boundaries_app.command("resolve")
def boundaries_resolve(
    boundary_id: str,
    timeout: Annotated[float, typer.Option(help="Probe timeout, seconds.")] = 10.0,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Run the boundary's tie-breaker probe once and settle its case (zero model tokens)."""
    accord = open_accord(config, db, keys)
    try:
        accord.probes.load()  # a bad probe path is named before anything is looked up
        receipt = accord.boundaries.resolve(boundary_id, timeout_s=timeout)
    except ConfigError as exc:  # a configured probe that cannot be loaded: unusable input
        report_problem("error", exc)
        raise typer.Exit(2) from exc
    except AccordError as exc:
        report_problem("not resolved", exc)
        raise typer.Exit(1) from exc
    finally:
        accord.close()
    sys.stdout.write(receipt.model_dump_json(indent=2) + "\n")
