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
from accord.approvals import (
    ActingDeadline,
    ApprovalItem,
    Reviewer,
    verdict_of,
    verdict_of_decision,
    verdict_words,
)
from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import report_problem
from accord.cli.tables import listing, print_json, text_cell
from accord.clock import isoformat
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
        acting = [accord.acting_deadline(i) for i in items]
    except AccordError as exc:
        report_problem("invalid input", exc)
        raise typer.Exit(2) from exc
    finally:
        accord.close()
    if as_json:
        print_json([_item_json(i, a) for i, a in zip(items, acting, strict=True)])
        return
    # The whole item id: it is what `accord approvals decide ITEM` takes. The deadline is the
    # one that will act (the item's own or its case tier's, whichever is sooner), and what then.
    table = listing("item", "case", "risk", "status", "role", "deadline", "options")
    for i, a in zip(items, acting, strict=True):
        table.add_row(
            i.item_id,
            i.case_id,
            i.risk,
            verdict_of(i) or i.status.value,
            i.current_role or "-",
            f"{isoformat(a.due_at)} ({a.in_brief})" if a else "-",
            " | ".join(text_cell(option, 80) for option in i.options),
        )
    Console().print(table)


def _item_json(item: ApprovalItem, acting: ActingDeadline | None) -> dict[str, object]:
    """The item as JSON with its ``verdict`` and ``acting_deadline`` (as the HTTP API has them)."""
    return {
        **item.model_dump(mode="json"),
        "verdict": verdict_of(item),
        "acting_deadline": None if acting is None else acting.model_dump(mode="json"),
    }


@approvals_app.command("show")
def approvals_show(
    item_id: str, db: DbOption = None, keys: KeysOption = None, config: ConfigOption = None
) -> None:
    """One approval item: positions, analysis so far, options, its verdict once decided and the
    deadline that will act on it while it waits (acting_deadline: when, and what then)."""
    accord = open_accord(config, db, keys, must_exist=True, read_only=True)
    try:
        item = accord.approvals.get(item_id)
        acting = accord.acting_deadline(item)
    except AccordError as exc:
        report_problem("error", exc)
        raise typer.Exit(1) from exc
    finally:
        accord.close()
    print_json(_item_json(item, acting))


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
    verdict = verdict_of_decision(decision)
    Console().print(
        f"{item.item_id}: {verdict_words(verdict, decision)} by {decision.decided_by}",
        markup=False,
    )
