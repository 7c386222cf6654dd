"""Entry point of the ``accord`` command: a root that loads the commands only when one runs.

``accord --help`` lists the commands from :data:`COMMANDS` without importing them (the library
behind them takes over a second to import); running a command, or asking for its own help,
imports :mod:`accord.cli.commands`. A test pins :data:`COMMANDS` to the real commands.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any, cast

import typer
from typer.core import TyperCommand, TyperGroup

# Name -> short help, in the order `accord --help` lists them.
COMMANDS: dict[str, str] = {
    "sweep": "Fire every due deadline exactly once (exit 1 if a deadline's handler failed).",
    "settle": "Settle the cases in FILE and print each decision as JSON (exit 2 on invalid input).",
    "cases": "List cases, newest first.",
    "case": "Print one case as JSON: positions, detection, decision or escalation, deadline, "
    "verdict.",
    "report": "Plots (cases by kind, escalation rate, win rate per agent), routing advice, "
    "root causes.",
    "init": "Create the database, the service key and an example accord.yaml + org.yaml.",
    "serve": "Serve the HTTP API and the reviewer page (Ctrl-C or SIGTERM stops it gracefully).",
    "mcp": "Serve Accord's MCP tools (settle, case_status, park, wait_for_decision) over stdio.",
    "receipt": "Print a decided approval item's signed receipt, or check one offline (--verify).",
    "demo-service": "Build the demo company's database and serve it (a reviewer, an agent "
    "and an admin API key are printed).",
    "verify": "Verify every entry, link, signature and checkpoint against the pinned service "
    "key and the keys it registered, then the case tables against them.",
    "demo": "Settle a day of agent disagreements through the real API and print the verified "
    "ledger.",
    "ledger": "Read, prove and checkpoint the ledger.",
    "keys": "Manage signing keys.",
    "eval": "Measure Accord against labelled data.",
    "dissent": "Dissent records: query, export, learn.",
    "approvals": "The human approval queue.",
    "session": "Close a session into boundaries.",
    "boundaries": "Disagreement boundaries for successors.",
    "schema": "Print the JSON Schemas of Accord's inputs.",
    "precedents": "Jurisprudence bundles (precedents): search, show, export, add.",
    "collect": "Collecting cases: each named agent submits its own position; the last settles "
    "it.",
    "disputes": "DCP-07 disputes: open, show, list, evidence, escalate, withdraw, export, "
    "import.",
    "webhooks": "Webhooks: deliver the outbox once, list subscriptions.",
}


#: Commands in a module light enough to load alone ("module:function"): running one, or its
#: own ``--help``, does not import the other commands (a test pins each to the real command).
OWN_MODULES: dict[str, str] = {"verify": "accord.cli.verify_command:verify"}


class LazyCommands(TyperGroup):
    """The root group: lists :data:`COMMANDS` statically, loads a command when it is used.

    Contexts are typed ``Any``: typer vendors its own click, whose classes it does not export.
    """

    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in COMMANDS:
            return None
        if self._listing:  # the root's help needs only a name and a line
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name])
        if cmd_name in OWN_MODULES:
            return _alone(cmd_name)
        return _loaded(ctx).get_command(ctx, cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def _alone(name: str) -> Any:
    """The command ``name`` from its own module, nothing else imported."""
    module, function = OWN_MODULES[name].split(":")
    single = typer.Typer(add_completion=False)
    single.command(name)(getattr(importlib.import_module(module), function))
    return typer.main.get_command(single)


def _loaded(ctx: typer.Context) -> TyperGroup:
    """The real commands, converted to a command group once per run."""
    cache: dict[str, Any] = ctx.find_root().meta
    if "accord.commands" not in cache:
        from accord.cli.commands import app as commands

        cache["accord.commands"] = typer.main.get_command(commands)
    return cast(TyperGroup, cache["accord.commands"])


app = typer.Typer(
    cls=LazyCommands,
    add_completion=False,
    no_args_is_help=True,
    help="Accord: settle disagreements between AI agents, with a signed ledger.",
)


@app.callback()
def _root(
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Log info events to stderr.")
    ] = False,
) -> None:
    from accord.cli.logging_setup import configure_logging

    configure_logging(verbose)


def main() -> None:  # pragma: no cover - console entry point
    """Run the CLI; an ``AccordError`` a command did not report itself is still one line and
    exit 2 (unusable input), never a traceback or the exit 1 of "not verified"."""
    from accord.errors import AccordError

    try:
        app()
    except AccordError as exc:
        from accord.cli.problems import report_problem

        report_problem("error", exc)
        raise SystemExit(2) from exc
