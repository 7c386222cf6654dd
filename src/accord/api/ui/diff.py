"""Positions side by side, field by field: which fields the agents disagree on.

Structured outputs are flattened to paths (``address.city``, ``lines[2].price``); a scalar
output is the single field ``output``. A field disagrees when the positions' values differ,
or when some positions lack it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

MISSING = "—"
"""How an absent field is shown."""


@dataclass(frozen=True)
class FieldRow:
    path: str
    values: tuple[str, ...]
    """One rendered value per position, in the positions' order."""
    agree: bool


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Leaf paths of a JSON value; a non-empty mapping or list is descended into."""
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for key, inner in value.items():
            out.update(flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        return out
    if isinstance(value, list) and value:
        out = {}
        for index, inner in enumerate(value):
            out.update(flatten(inner, f"{prefix}[{index}]"))
        return out
    return {prefix or "output": value}


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def field_rows(outputs: Sequence[Any]) -> list[FieldRow]:
    """Every field of any output, in first-seen order, with each position's value."""
    flat = [flatten(o) for o in outputs]
    paths: dict[str, None] = {}
    for f in flat:
        paths.update(dict.fromkeys(f))
    rows = []
    for path in paths:
        present = [path in f for f in flat]
        values = [json.dumps(f[path], sort_keys=True) if path in f else None for f in flat]
        agree = all(present) and len(set(values)) == 1
        shown = tuple(_shown(f[path]) if path in f else MISSING for f in flat)
        rows.append(FieldRow(path=path, values=shown, agree=agree))
    return rows
