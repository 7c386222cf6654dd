"""Tables people can copy from: nothing is cut, values print as JSON.

Every column folds a long cell onto more lines instead of ending it in an ellipsis, so an id
(``apr:01…``, ``bnd:…``, a case id) is always whole — on one line when the terminal is wide
enough, folded onto two on a narrow one (Rich would crop a column kept on one line). Every
listing command also takes ``--json``, for scripts.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.table import Table


def listing(*columns: str, title: str | None = None) -> Table:
    """A table with ``columns`` whose cells fold instead of being cut."""
    table = Table(title=title)
    for name in columns:
        table.add_column(name, overflow="fold")
    return table


def json_cell(value: object) -> str:
    """A value as compact JSON (``true``, ``{"k": 1}``, ``"text"``), never a Python repr."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)


def text_cell(value: str | None, limit: int = 200) -> str:
    """Free text for a table cell: ``-`` when absent, longer text shortened with ``…``.

    Only prose is shortened (crux statements, options); ids never go through here.
    """
    if not value:
        return "-"
    return value if len(value) <= limit else value[: limit - 1] + "…"


def print_json(data: Any) -> None:
    """``data`` as indented JSON on stdout (what every ``--json`` prints)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
