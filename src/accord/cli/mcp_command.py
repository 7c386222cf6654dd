"""``accord mcp --as AGENT``: Accord's MCP server over stdio, acting as one agent.

The caller's identity is ``--as`` and nothing else; the server speaks MCP on stdin/stdout (so
nothing else may write there) and logs to stderr. Needs ``accord[mcp]``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from accord.cli.opening import open_accord
from accord.cli.options import ConfigOption, DbOption, KeysOption
from accord.cli.problems import report_problem
from accord.errors import AccordError

AsOption = Annotated[
    str, typer.Option("--as", help="The agent this server acts as (the caller's only identity).")
]


def mcp(
    agent: AsOption,
    db: DbOption = None,
    keys: KeysOption = None,
    config: ConfigOption = None,
) -> None:
    """Serve Accord's MCP tools (settle, case_status, park, wait_for_decision) over stdio."""
    try:
        from accord.integrations.mcp import build_server
    except AccordError as exc:  # the extra is missing, or an unsupported mcp version
        report_problem("error", str(exc))
        raise typer.Exit(2) from exc
    accord = open_accord(config, db, keys)
    try:
        build_server(accord, agent=agent).run("stdio")
    finally:
        accord.close()
