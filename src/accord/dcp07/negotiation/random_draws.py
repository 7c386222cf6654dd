"""Uniform draws anyone can recompute from a 32-byte seed: SHA-256 in counter mode with
rejection sampling, and the partial Fisher–Yates shuffle panel selection and the coin use.

Algorithm ``dcp07-draw-v1``:

* block ``i`` (``i`` = 0, 1, 2, …) is ``SHA-256(framed("DCP-07-DRAW-v1", seed, u64be(i)))``;
  each draw reads the next block's first 8 bytes as an unsigned big-endian integer ``x``;
* a draw below ``n`` accepts ``x`` when ``x < 2**64 - (2**64 mod n)`` and returns ``x mod n``;
  otherwise it rejects ``x`` and reads the next block (so every result is exactly uniform);
* ``choose(items, k)`` runs ``k`` steps of Fisher–Yates over ``items`` in the given order:
  step ``j`` swaps position ``j`` with ``j + below(len(items) - j)``; the first ``k`` positions,
  in order, are the choice. Nothing is ever picked twice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

from accord.dcp07.negotiation.framing import framed

DRAW_ALGORITHM = "dcp07-draw-v1"
DRAW_TAG = "DCP-07-DRAW-v1"
SEED_BYTES = 32
_SPACE = 1 << 64

T = TypeVar("T")


class DrawStream:
    """Uniform integers from one seed, in a fixed order: the same seed, the same draws."""

    __slots__ = ("_counter", "_seed")

    def __init__(self, seed: bytes) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a draw seed is {SEED_BYTES} bytes")
        self._seed = seed
        self._counter = 0

    @property
    def blocks_used(self) -> int:
        """How many hash blocks the draws so far consumed (rejections included)."""
        return self._counter

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n < 1:
            raise ValueError("draw bound must be at least 1")
        limit = _SPACE - (_SPACE % n)
        while True:
            block = hashlib.sha256(
                framed(DRAW_TAG, self._seed, self._counter.to_bytes(8, "big"))
            ).digest()
            self._counter += 1
            x = int.from_bytes(block[:8], "big")
            if x < limit:
                return x % n


def choose(seed: bytes, items: Sequence[T], k: int) -> tuple[T, ...]:
    """``k`` distinct items drawn in order from ``items`` (partial Fisher–Yates, see above)."""
    if not 0 <= k <= len(items):
        raise ValueError("cannot choose more items than there are")
    pool = list(items)
    draws = DrawStream(seed)
    for j in range(k):
        pick = j + draws.below(len(pool) - j)
        pool[j], pool[pick] = pool[pick], pool[j]
    return tuple(pool[:k])
