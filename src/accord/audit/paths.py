"""The vocabulary of the stored-rows audit: where a signed value sits in a record, what a
stored value is compared with, and how a disagreement is reported (pure).

A *view* is a flat mapping ``path → value``. The signed view of a case or approval item is
folded from its ledger records, later records overriding earlier ones (the latest signed
state); the stored view is computed from the stored document. Each table's description maps
every path (or column) to how its value is derived, or declares it :class:`Unsigned` with the
reason, so a new field or column is either compared or listed — never silently skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Record = Mapping[str, Any]
Extract = Callable[[Record], Any]
MISSING: Any = object()
"""What an extractor returns when the record does not state the value (nothing is set)."""


@dataclass(frozen=True)
class Unsigned:
    """A column or field no signed record states, kept deliberately; ``reason`` says why."""

    reason: str


def at(*keys: str) -> Extract:
    """The value under ``keys`` in the record (``MISSING`` when a key is absent)."""

    def extract(record: Record) -> Any:
        value: Any = record
        for key in keys:  # records are parsed JSON: dicts (cheaper to test than Mapping)
            if not isinstance(value, dict) or key not in value:
                return MISSING
            value = value[key]
        return value

    return extract


def each(key: str, field: str, transform: Callable[[Any], Any] | None = None) -> Extract:
    """``[item[field] for item in record[key]]`` (optionally transformed)."""

    def extract(record: Record) -> Any:
        items = record.get(key)
        if not isinstance(items, list):
            return MISSING
        values = [i.get(field) if isinstance(i, dict) else None for i in items]
        return [transform(v) for v in values] if transform is not None else values

    return extract


def const(value: Any) -> Extract:
    """A value implied by the record's event type."""
    return lambda _record: value


def fold(view: dict[str, Any], paths: Mapping[str, Extract], record: Record) -> None:
    """Set every path the record states (later records override earlier ones)."""
    for path, extract in paths.items():
        value = extract(record)
        if value is not MISSING:
            view[path] = value


def is_empty(value: Any) -> bool:
    """Nothing stored: such a value needs no signed record behind it."""
    return value is None or value == 0 or value == "" or value == [] or value == {}


@dataclass(frozen=True)
class RowProblem:
    """A stored row that disagrees with, or is not backed by, the signed records."""

    code: str
    """``<table>.mismatch``, ``<table>.unbacked`` or ``<table>.missing_row``."""
    table: str
    key: str
    """The row's key (``case_id``, ``item_id``, ``case_id/agent_id``, ``dissent_id``)."""
    column: str
    """The column, or ``document:<path>`` for a field of the stored document."""
    rule: str
    expected: str | None = None
    stored: str | None = None
    case_id: str | None = None
    item_id: str | None = None
    seq: int | None = None
    """For a ledger row: its seq (or a checkpoint's tree size)."""

    def context(self) -> dict[str, Any]:
        """The error's code and context (``field`` is the column, as earlier releases named it)."""
        context: dict[str, Any] = {
            "code": self.code,
            "table": self.table,
            "key": self.key,
            "column": self.column,
            "field": self.column,
            "rule": self.rule,
            "expected": self.expected,
            "stored": self.stored,
        }
        if self.case_id is not None:
            context["case_id"] = self.case_id
        if self.item_id is not None:
            context["item_id"] = self.item_id
        if self.seq is not None:
            context["seq"] = self.seq
        return context

    @property
    def message(self) -> str:
        text = f"{self.table} {self.key}: {self.column}: {self.rule}"
        if self.expected is not None or self.stored is not None:
            text += f" (signed: {self.expected}, stored: {self.stored})"
        return text


def shown(value: Any, limit: int = 120) -> str:
    """A value for an error message, truncated to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def compare_views(
    signed: Mapping[str, Any],
    stored: Mapping[str, Any],
    problem: Callable[..., RowProblem],
) -> RowProblem | None:
    """The first path whose stored value differs from the signed one, or is stored with no
    signed record stating it (``problem(kind, path, expected, stored)`` builds the report)."""
    for path, value in stored.items():
        if path not in signed:
            if not is_empty(value):
                return problem("unbacked", path, None, value)
        elif signed[path] != value:
            return problem("mismatch", path, signed[path], value)
    return None
