"""`accord approvals list | show | decide`: people deciding escalated cases.

The decider is the principal a reviewer key was registered for (``--key FILE`` or
``$ACCORD_REVIEWER_KEY``; made by ``accord keys new --role reviewer --principal human:NAME``),
and the key signs the decision. Only where accord.yaml opts in (``approvals.allow_os_login:
true``) may a decision without a key come from the OS login (``human:<login>``). Either way the
principal must be configured in ``approvals.principals``.
"""

from __future__ import annotations

import getpass
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from accord.app import PASSPHRASE_ENV, Accord
from accord.approvals import Reviewer
from accord.cli.opening import open_accord, print_one
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import report_problem
from accord.cli.tables import listing, print_json, text_cell
from accord.crypto import signer_from_file
from accord.errors import AccordError

approvals_app = typer.Typer(no_args_is_help=True, help="The human approval queue.")


REVIEWER_KEY_ENV = "ACCORD_REVIEWER_KEY"


def _reviewer(accord: Accord, key: Path | None) -> Reviewer:
    """The reviewer this command decides as: the key's registered principal, or (opted in)
    the OS login. Unusable keys or settings exit with 2."""
    try:
        if key is None:
            return accord.os_login_reviewer(getpass.getuser())
        signer = signer_from_file(
            key,
            os.environ.get(PASSPHRASE_ENV),
            allow_unsafe_permissions=accord.config.settings.keys.allow_unsafe_permissions,
        )
        return accord.reviewer(signer)
    except AccordError as exc:
        accord.close()
        report_problem("error", exc)
        raise typer.Exit(2) from exc


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
    accord = open_accord(config, db, keys, must_exist=True, read_only=True)
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
    option: Annotated[str | None, typer.Argument(help="The option you approve.")] = None,
    choice: Annotated[str | None, typer.Option(help="Same as OPTION.")] = None,
    deny: Annotated[bool, typer.Option("--deny", help="Reject every option.")] = False,
    outcome: Annotated[
        str | None,
        typer.Option(
            "--outcome",
            metavar="TEXT",
            help="Your own outcome in words, instead of an option (the case settles on it).",
        ),
    ] = None,
    reason: Annotated[str, typer.Option(help="Why (kept in the ledger).")] = "",
    key: Annotated[
        Path | None,
        typer.Option(
            "--key",
            envvar=REVIEWER_KEY_ENV,
            help=f"Your reviewer key file (*.key.json; default ${REVIEWER_KEY_ENV}).",
        ),
    ] = None,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Decide an item as the reviewer whose key you hold — an option, your own outcome
    (--outcome TEXT) or --deny; the key signs the decision and the case settles in the same
    transaction."""
    if option is not None and choice is not None:
        report_problem("invalid input", "give OPTION or --choice, not both")
        raise typer.Exit(2)
    choice = option if option is not None else choice
    if (choice is not None) + (outcome is not None) + deny != 1:
        report_problem("invalid input", "give exactly one of OPTION, --outcome or --deny")
        raise typer.Exit(2)
    accord = open_accord(config, db, keys)
    reviewer = _reviewer(accord, key)
    try:
        item = accord.decide(
            item_id,
            reviewer,
            choice=choice,
            deny=deny,
            reason=reason,
            outcome=outcome,
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
        + (f" the written outcome {decision.written_outcome!r}" if decision.written_outcome else "")
        + f" by {decision.decided_by}"
    )
