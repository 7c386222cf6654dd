"""Record identifiers: ``prefix:`` + a UUIDv7 (RFC 9562) whose time comes from the caller.

A UUIDv7 starts with the Unix time in milliseconds, then 74 random bits. Keys created in
time order land at the end of B-tree indexes instead of at random pages, which keeps a
batch's writes (and the WAL it fsyncs) small; identifiers also sort by creation time.
The time is passed in (from the injected ``Clock``), so ids follow the clock a test sets.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from datetime import UTC, datetime, timedelta
from typing import Protocol

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MILLISECOND = timedelta(milliseconds=1)
_MS_MASK = (1 << 48) - 1
_RANDOM_BYTES = 10


def uuid7(at: datetime, random_bits: bytes | None = None) -> str:
    """A version-7 UUID string for instant ``at``, random below the time (``random_bits``: the
    10 bytes to use instead of the operating system's). A naive ``at`` is read as local time,
    as :func:`accord.clock.isoformat` reads it."""
    if at.tzinfo is None:
        at = at.astimezone(UTC)
    ms = max((at - _EPOCH) // _MILLISECOND, 0) & _MS_MASK
    if random_bits is not None and len(random_bits) != _RANDOM_BYTES:
        raise ValueError(f"a UUIDv7's random part is {_RANDOM_BYTES} bytes")
    rand = int.from_bytes(random_bits or os.urandom(_RANDOM_BYTES), "big")
    value = (
        ms << 80
        | 0x7 << 76  # version
        | ((rand >> 62) & 0xFFF) << 64  # rand_a: 12 bits
        | 0b10 << 62  # RFC 9562 variant
        | (rand & ((1 << 62) - 1))  # rand_b: 62 bits
    )
    h = f"{value:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def new_id(prefix: str, at: datetime) -> str:
    """``prefix:<uuid7>``, e.g. ``disp:019ad0f4-...`` for a case created at ``at``."""
    return f"{prefix}:{uuid7(at)}"


def new_hex_id(prefix: str, at: datetime) -> str:
    """``prefix:<32 hex>``: the same UUIDv7 without dashes (boundary ids use this form)."""
    return f"{prefix}:{uuid7(at).replace('-', '')}"


class IdSource(Protocol):
    """Where a step's new record ids come from (``prefix:<uuid7>`` at a given instant)."""

    def new_id(self, prefix: str, at: datetime) -> str: ...


class RandomIds:
    """Ids random below their time (:func:`new_id`): the default everywhere."""

    def new_id(self, prefix: str, at: datetime) -> str:
        return new_id(prefix, at)


class SeededIds:
    """The same ids, call for call, every time a step is run again from ``seed``: the n-th
    id's random part is HMAC-SHA256(seed, prefix, n). A prepared tier step runs once to show
    the agent what it will sign, then again to record it, and must name the same records."""

    def __init__(self, seed: bytes) -> None:
        if len(seed) < 16:
            raise ValueError("an id seed is at least 16 bytes")
        self._seed = seed
        self._count = 0

    def new_id(self, prefix: str, at: datetime) -> str:
        self._count += 1
        message = f"{prefix}\x00{self._count}".encode()
        bits = hmac.new(self._seed, message, hashlib.sha256).digest()[:_RANDOM_BYTES]
        return f"{prefix}:{uuid7(at, bits)}"
