"""Printing a problem on stderr: a styled label, then the detail exactly as it is.

Details carry user text (file names, agent ids, YAML keys) and error codes in brackets
(``[config.invalid]``); printed as Rich markup they would be swallowed or crash the CLI, so
the detail is plain text, and lines are never re-wrapped.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text


def report_problem(label: str, detail: object) -> None:
    """Print ``label detail`` on stderr (``error [not_found] no case disp:…``)."""
    Console(stderr=True, soft_wrap=True).print(Text.assemble((label, "bold red"), " ", str(detail)))
