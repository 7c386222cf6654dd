"""Record identifiers: ``prefix:`` + a UUIDv7 (RFC 9562) whose time comes from the caller.

A UUIDv7 starts with the Unix time in milliseconds, then 74 random bits. Keys created in
time order land at the end of B-tree indexes instead of at random pages, which keeps a
batch's writes (and the WAL it fsyncs) small; identifiers also sort by creation time.
The time is passed in (from the injected ``Clock``), so ids follow the clock a test sets.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MILLISECOND = timedelta(milliseconds=1)
_MS_MASK = (1 << 48) - 1


def uuid7(at: datetime) -> str:
    """A version-7 UUID string for instant ``at``, random below the time. A naive ``at`` is
    read as local time, as :func:`accord.clock.isoformat` reads it."""
    if at.tzinfo is None:
        at = at.astimezone(UTC)
    ms = max((at - _EPOCH) // _MILLISECOND, 0) & _MS_MASK
    rand = int.from_bytes(os.urandom(10), "big")
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
