"""Tables people can copy from: an id is never cut or folded, values print as JSON.

A cell without whitespace (an id such as ``apr:01…``, an agent, a timestamp, a hash) keeps its
whole width on one line, and a header never breaks inside a word; free text wraps at words.
When the terminal is too narrow for that, the listing prints each row as ``column  value``
lines instead of a table. Every listing command also takes ``--json``, for scripts.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.style import StyleType
from rich.table import Column, Table
from rich.text import Text

#: A cell without whitespace longer than this may fold (a pasted document, not an id).
LONGEST_TOKEN = 96


class Listing(Table):
    """A table that keeps ids whole: as a table when every column's least width fits the
    terminal, otherwise as one block of ``column  value`` lines per row. A text cell is shown
    as it is: no Rich markup or ``:emoji:`` codes are read in data (``mcp:agent:a:key``)."""

    def add_row(
        self,
        *renderables: RenderableType | None,
        style: StyleType | None = None,
        end_section: bool = False,
    ) -> None:
        cells = [Text(cell) if isinstance(cell, str) else cell for cell in renderables]
        super().add_row(*cells, style=style, end_section=end_section)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        least = [_least_width(column) for column in self.columns]
        # each column takes its cell plus one space of padding on each side and a rule
        if sum(least) + 3 * len(least) + 1 <= options.max_width:
            for column, width in zip(self.columns, least, strict=True):
                column.min_width = width
            yield from super().__rich_console__(console, options)
            return
        yield from self._records()

    def _records(self) -> Iterator[Text]:
        if self.title:
            yield Text(str(self.title), style="bold")
        names = [str(column.header) for column in self.columns]
        pad = max((len(name) for name in names), default=0)
        for row in range(self.row_count):
            if row:
                yield Text("")
            for name, column in zip(names, self.columns, strict=True):
                yield Text(f"{name:<{pad}}  {_cell_text(column, row)}")


def _cell_text(column: Column, row: int) -> str:
    cells = list(column.cells)
    return str(cells[row]) if row < len(cells) else ""


def _least_width(column: Column) -> int:
    """The narrowest the column may be: its header's longest word, each whitespace-free cell
    whole (up to :data:`LONGEST_TOKEN`), each other cell's longest word."""
    words = [len(word) for word in str(column.header).split()] or [1]
    for cell in column.cells:
        text = str(cell)
        if text and not any(ch.isspace() for ch in text):
            words.append(min(len(text), LONGEST_TOKEN))
        else:
            words.extend(len(word) for word in text.split())
    return max(words)


def listing(*columns: str, title: str | None = None) -> Listing:
    """A :class:`Listing` with ``columns``; a cell longer than the rules above allow folds."""
    table = Listing(title=title)
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
