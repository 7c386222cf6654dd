"""The one rule for text that names things — agent ids, subjects, task types, session ids:
printable characters only.

Refused: control characters (NUL, newlines, tabs, DEL, C1), format characters (bidirectional
overrides and isolates, zero-width spaces and joiners, the BOM), line and paragraph separators,
lone surrogates, private-use and unassigned code points, and spaces other than U+0020 — exactly
what :meth:`str.isprintable` refuses. Such characters make ids look alike that are not (a
right-to-left override, a zero-width space), break log lines and tables, and a NUL cannot be
stored by PostgreSQL.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field

PRINTABLE_RULE = (
    "printable text only: no control characters (NUL, newlines), bidirectional overrides "
    "or zero-width characters"
)

MAX_ID_LENGTH = 256
"""The longest id (agent, principal) a record may carry."""


def printable_problem(value: str) -> str | None:
    """``None`` when ``value`` is printable text, else the rule naming the first bad character."""
    if value.isprintable():  # C speed: the common case costs one pass
        return None
    index, char = next((i, c) for i, c in enumerate(value) if not c.isprintable())
    return f"{PRINTABLE_RULE} (U+{ord(char):04X} at character {index})"


_LINE_BREAKS = re.compile(r"[\n\t]")


def prose_problem(value: str) -> str | None:
    """``None`` when ``value`` is printable text apart from newlines and tabs (free prose a
    person writes: a holding, a written outcome), else the rule naming the first bad
    character."""
    problem = printable_problem(_LINE_BREAKS.sub(" ", value))
    if problem is None:
        return None
    return f"{problem}; prose may hold newlines and tabs, no other control character"


def _check_printable(value: str) -> str:
    problem = printable_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


PrintableText = Annotated[str, AfterValidator(_check_printable)]
"""A string of printable characters (see the module docstring); any length."""

PrintableId = Annotated[
    str, Field(min_length=1, max_length=MAX_ID_LENGTH), AfterValidator(_check_printable)
]
"""An id such as ``agent:billing``: 1–256 printable characters."""
