"""Digests of JSON values for exact comparison: equal for equal values, in constant memory."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any


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
