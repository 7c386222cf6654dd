"""`accord approvals list | show | decide` and `accord sweep`: people deciding escalated cases.

The deciding principal is the operating-system account running the command (``human:<login>``):
a decision's author comes from authentication, never from a flag or a request body. Roles come
from ``approvals.principals`` in accord.yaml.
"""

from __future__ import annotations

import getpass
from typing import Annotated

import typer
from rich.console import Console

from accord.cli.opening import open_accord, print_one
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import report_problem
from accord.cli.tables import listing, print_json, text_cell
from accord.errors import AccordError

approvals_app = typer.Typer(no_args_is_help=True, help="The human approval queue.")


def current_principal_id() -> str:
    """The authenticated person running this command."""
    return f"human:{getpass.getuser()}"


@approvals_app.command("list")
def approvals_list(
    status: Annotated[str | None, typer.Option(help="pending | approved | denied | expired")] = (
        "pending"
    ),
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Approval items (pending by default)."""
    accord = open_accord(config, db, keys, must_exist=True)
    try:
        items = accord.approvals.list(status=status)
    except AccordError as exc:
        report_problem("invalid input", exc)
        raise typer.Exit(2) from exc
    finally:
        accord.close()
    if as_json:
        print_json([i.model_dump(mode="json") for i in items])
        return
    # The whole item id: it is what `accord approvals decide ITEM` takes.
    table = listing("item", "case", "risk", "status", "role", "deadline", "options")
    for i in items:
        table.add_row(
            i.item_id,
            i.case_id,
            i.risk,
            i.status.value,
            i.current_role or "-",
            i.deadline.isoformat() if i.deadline else "-",
            " | ".join(text_cell(option, 80) for option in i.options),
        )
    Console().print(table)


@approvals_app.command("show")
def approvals_show(
    item_id: str, db: DbOption = None, keys: KeysOption = None, config: ConfigOption = None
) -> None:
    """One approval item: positions, analysis so far, options, deadline."""
    print_one(config, db, keys, lambda accord: accord.approvals.get(item_id))


@approvals_app.command("decide")
def approvals_decide(
    item_id: str,
    choice: Annotated[str | None, typer.Option(help="The option you approve.")] = None,
    deny: Annotated[bool, typer.Option("--deny", help="Reject every option.")] = False,
    reason: Annotated[str, typer.Option(help="Why (kept in the ledger).")] = "",
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Decide an item as the logged-in user; the case settles in the same transaction."""
    if deny == (choice is not None):
        report_problem("invalid input", "give exactly one of --choice or --deny")
        raise typer.Exit(2)
    accord = open_accord(config, db, keys)
    try:
        item = accord.decide(
            item_id,
            accord.principal(current_principal_id()),
            choice=choice,
            deny=deny,
            reason=reason,
        )
    except AccordError as exc:
        report_problem("refused", exc)
        raise typer.Exit(1) from exc
    finally:
        accord.close()
    decision = item.decision
    assert decision is not None
    Console().print(
        f"{item.item_id}: {decision.outcome}"
        + (f" {decision.choice!r}" if decision.choice else "")
        + f" by {decision.decided_by}"
    )


def sweep(
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """Apply every due approval deadline exactly once (run from cron or a timer)."""
    accord = open_accord(config, db, keys)
    try:
        swept = accord.sweep()
    finally:
        accord.close()
    if as_json:
        print_json([i.model_dump(mode="json") for i in swept])
        return
    for item in swept:
        Console().print(
            f"{item.item_id}: {item.status.value}"
            + (f" (now offered to {item.current_role})" if item.current_role else "")
        )
    Console().print(f"{len(swept)} item(s) swept")
