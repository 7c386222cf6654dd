"""Dotted field paths over structured outputs, and hashable keys for exact comparison."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
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


def fingerprint(value: Any) -> bytes:
    """A 32-byte digest, equal for equal JSON values (``1`` and ``1.0`` alike, ``True`` and
    ``1`` not, mappings in any key order), computed without copying the value."""
    digest = hashlib.blake2b(digest_size=32)
    _feed(digest.update, value)
    return digest.digest()


def multiset_fingerprint(values: Iterable[Any]) -> tuple[int, int]:
    """``(count, sum of fingerprints mod 2**256)``: equal for the same elements in any order,
    in constant memory however many elements there are."""
    count = total = 0
    for value in values:
        count += 1
        total = (total + int.from_bytes(fingerprint(value), "big")) % _MODULUS
    return count, total


_MODULUS = 1 << 256


def _feed(update: Callable[[bytes], None], value: Any) -> None:
    if isinstance(value, bool):
        update(b"t" if value else b"f")
    elif isinstance(value, int | float):
        number = int(value) if isinstance(value, float) and value.is_integer() else value
        text = repr(number).encode()
        update(b"n%d:" % len(text) + text)
    elif isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")
        update(b"s%d:" % len(data) + data)
    elif value is None:
        update(b"z")
    elif isinstance(value, Mapping):
        update(b"{%d:" % len(value))
        for key in sorted(value):
            data = key.encode("utf-8", "surrogatepass")
            update(b"%d:" % len(data) + data)
            _feed(update, value[key])
        update(b"}")
    else:
        update(b"[%d:" % len(value))
        for item in value:
            _feed(update, item)
        update(b"]")
