"""Dotted field paths over structured outputs, and hashable keys for exact comparison."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any, Final, TypeVar

V = TypeVar("V")


class _Missing(Enum):
    MISSING = "missing"


MISSING: Final = _Missing.MISSING
"""What :func:`value_at` returns where an output has nothing at a path."""


def leaves(output: Mapping[str, Any]) -> dict[str, Any]:
    """Leaf values by dotted path, in document order; lists and empty mappings are leaves."""
    result: dict[str, Any] = {}
    _collect(output, "", result)
    return result


def _collect(mapping: Mapping[str, Any], prefix: str, into: dict[str, Any]) -> None:
    for key, value in mapping.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, Mapping) and value:
            _collect(value, path, into)
        else:
            into[path] = value


def value_at(output: Mapping[str, Any], path: str) -> Any:
    """The leaf or sub-mapping at dotted ``path``, or :data:`MISSING`."""
    node: Any = output
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return MISSING
        node = node[part]
    return node


def path_key(path: str) -> tuple[str, ...]:
    """Sort key putting ``a.b`` right after ``a`` and before ``a_b``."""
    return tuple(path.split("."))


def nearest_value(per_path: Mapping[str, V], path: str) -> V | None:
    """The value set for dotted ``path`` or, failing that, for its nearest ancestor."""
    probe = path
    while True:
        found = per_path.get(probe)
        if found is not None:
            return found
        cut = probe.rfind(".")
        if cut < 0:
            return None
        probe = probe[:cut]


def ancestors(path: str) -> list[str]:
    """``a.b.c`` → ``["a", "a.b"]``."""
    parts = path.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts))]


_BOOL, _NUMBER, _TEXT, _NULL, _LIST, _MAP = range(6)


def frozen(value: Any) -> Any:
    """A hashable key equal for equal JSON values; ``True`` and ``1`` stay different."""
    if isinstance(value, bool):
        return (_BOOL, value)
    if isinstance(value, int | float):
        return (_NUMBER, value)
    if isinstance(value, str):
        return (_TEXT, value)
    if value is None:
        return (_NULL,)
    if isinstance(value, Mapping):
        return (_MAP, frozenset((key, frozen(item)) for key, item in value.items()))
    return (_LIST, tuple(frozen(item) for item in value))
