"""`accord session close` and `accord boundaries list | pending | show | resolve`: the hand-off
from a session that ends with open disagreements to the session that settles them."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from accord.boundary import BOUNDARY_STATUSES, Boundary
from accord.cli.opening import open_accord, print_one
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import report_problem
from accord.cli.tables import listing, print_json, text_cell
from accord.errors import AccordError, ConfigError

session_app = typer.Typer(no_args_is_help=True, help="Close a session into boundaries.")
boundaries_app = typer.Typer(no_args_is_help=True, help="Disagreement boundaries for successors.")

STYLISTIC = "stylistic: the agents differ only in wording or format (not recorded)"


@session_app.command("close")
def session_close(
    session_id: str,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Turn every unresolved case of SESSION_ID into a disagreement boundary.

    Also lists the cases it skipped and why: stylistic differences are not recorded, and a case
    an earlier close already recorded keeps its boundary.
    """
    accord = open_accord(config, db, keys)
    try:
        report = accord.close_session_report(session_id)
    except AccordError as exc:
        report_problem("invalid input", exc)
        raise typer.Exit(2) from exc
    finally:
        accord.close()
    skipped = [
        *({"case_id": c, "reason": STYLISTIC} for c in report.stylistic),
        *(
            {"case_id": b.case_id, "reason": f"already recorded as {b.boundary_id}"}
            for b in report.already_recorded
        ),
    ]
    if as_json:
        print_json(
            {
                "session_id": report.session_id,
                "boundaries": [b.model_dump(mode="json") for b in report.boundaries],
                "skipped": skipped,
            }
        )
        return
    console = Console()
    console.print(_boundary_table(report.boundaries))
    n = len(report.boundaries)
    console.print(f"{n} boundar{'y' if n == 1 else 'ies'} recorded")
    if skipped:
        table = listing("skipped case", "why", title=f"{len(skipped)} case(s) skipped")
        for line in skipped:
            table.add_row(line["case_id"], line["reason"])
        console.print(table)


def _boundary_table(boundaries: Sequence[Boundary]) -> Table:
    table = listing("boundary", "session", "case", "status", "crux", "tie-breaker", "size")
    for b in boundaries:
        table.add_row(
            b.boundary_id,
            b.session_id,
            b.case_id,
            b.status,
            text_cell(b.crux.statement if b.crux else b.marker),
            b.tie_breaker.probe if b.tie_breaker else "-",
            f"{b.size_bytes:,} / {b.transcript_bytes:,} B ({b.budget_ratio:.1%})",
        )
    return table


@boundaries_app.command("list")
def boundaries_list(
    status: Annotated[
        str | None, typer.Option(help=f"Only this status: {' | '.join(BOUNDARY_STATUSES)}.")
    ] = None,
    session: Annotated[str | None, typer.Option(help="Only this session's boundaries.")] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Every boundary, oldest first, whatever its status: ``pending`` (one probe settles it),
    ``human`` (handed to people), ``ambiguous``, ``resolved``, ``consensus``, ``disjoint``."""
    accord = open_accord(config, db, keys, must_exist=True)
    try:
        found = accord.boundaries.find(session_id=session, status=status)
    except AccordError as exc:
        report_problem("invalid input", exc)
        raise typer.Exit(2) from exc
    finally:
        accord.close()
    if as_json:
        print_json([b.model_dump(mode="json") for b in found])
        return
    Console().print(_boundary_table(found))


@boundaries_app.command("pending")
def boundaries_pending(
    session: Annotated[str | None, typer.Option()] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Boundaries a successor can settle with one probe (``boundaries list`` shows all)."""
    accord = open_accord(config, db, keys, must_exist=True, read_only=True)
    try:
        pending = accord.boundaries.pending(session)
    finally:
        accord.close()
    if as_json:
        print_json([b.model_dump(mode="json") for b in pending])
        return
    Console().print(_boundary_table(pending))


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
