"""``accord webhooks``: one delivery pass over the outbox, and the subscriptions.

``deliver`` does what the worker in ``accord serve`` does every few seconds: queue the
near-deadline events, then POST every due delivery once (failures wait their backoff).
"""

from __future__ import annotations

import typer
from rich.console import Console

from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, JsonOption, KeysOption
from accord.cli.problems import report_problem
from accord.cli.tables import print_json
from accord.errors import AccordError

webhooks_app = typer.Typer(
    no_args_is_help=True, help="Webhooks: deliver the outbox once, list subscriptions."
)


@webhooks_app.command("deliver")
def deliver(
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
    as_json: JsonOption = False,
) -> None:
    """One delivery pass: every due webhook delivery is attempted once (exit 1 if any
    delivery gave up in this pass)."""
    accord = open_accord(config, db, keys)
    try:
        deliverer = accord.webhook_deliverer()
        try:
            report = deliverer.run_once()
        finally:
            deliverer.close()
    except AccordError as exc:
        report_problem("error", exc)
        raise typer.Exit(2) from exc
    finally:
        accord.close()
    if as_json:
        print_json(report.model_dump())
    else:
        Console().print(
            f"{report.delivered} delivered, {report.retrying} to retry, "
            f"{report.failed} given up, {report.queued} near-deadline event(s) queued"
        )
    if report.failed:
        raise typer.Exit(1)


@webhooks_app.command("list")
def list_subscriptions(
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Every subscription as JSON (never its secret)."""
    accord = open_accord(config, db, keys)
    try:
        print_json([s.model_dump() for s in accord.webhooks.subscriptions()])
    finally:
        accord.close()

