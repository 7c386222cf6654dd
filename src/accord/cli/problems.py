"""Printing a problem on stderr: a styled label, then the detail exactly as it is.

Details carry user text (file names, agent ids, YAML keys) and error codes in brackets
(``[config.invalid]``); printed as Rich markup they would be swallowed or crash the CLI, so
the detail is plain text, and lines are never re-wrapped.
"""

from __future__ import annotations

import typer
from rich.console import Console
from rich.text import Text

from accord.errors import AccordError, NotFound


def report_problem(label: str, detail: object) -> None:
    """Print ``label detail`` on stderr (``error [not_found] no case disp:…``)."""
    Console(stderr=True, soft_wrap=True).print(Text.assemble((label, "bold red"), " ", str(detail)))


def refused_exit(error: AccordError) -> typer.Exit:
    """Report ``error`` and the exit to raise: 1 when something is not found (like a refused
    check), 2 for refused input or a damaged database."""
    report_problem("error", error)
    return typer.Exit(1 if isinstance(error, NotFound) else 2)


def exit_with(error: AccordError, code: int = 2) -> typer.Exit:
    """Report ``error`` on stderr and give the exit to raise (2: unusable input)."""
    report_problem("error", error)
    return typer.Exit(code)
