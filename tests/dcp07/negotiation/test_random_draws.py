"""The verifiable draws behind the coin and panel selection: SHA-256 counter mode with
rejection sampling, and a partial Fisher–Yates that never repeats."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.dcp07.negotiation import DrawStream, choose

SEED = bytes(32)


def test_a_draw_reads_the_first_8_bytes_of_the_counter_block() -> None:
    block = hashlib.sha256(
        b"DCP-07-DRAW-v1\x00" + (32).to_bytes(4, "big") + SEED + (8).to_bytes(4, "big") + bytes(8)
    ).digest()
    assert DrawStream(SEED).below(1000) == int.from_bytes(block[:8], "big") % 1000


def test_draws_reject_values_that_would_bias_the_result() -> None:
    n = (1 << 63) + 1  # about half of all 64-bit values are rejected
    stream = DrawStream(SEED)
    draws = [stream.below(n) for _ in range(40)]
    assert all(0 <= d < n for d in draws)
    assert stream.blocks_used > 40


def test_a_seed_is_32_bytes_and_a_bound_positive() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        DrawStream(b"short")
    with pytest.raises(ValueError, match="at least 1"):
        DrawStream(SEED).below(0)


@given(seed=st.binary(min_size=32, max_size=32), size=st.integers(1, 12), data=st.data())
def test_choose_is_deterministic_and_never_repeats(
    seed: bytes, size: int, data: st.DataObject
) -> None:
    items = [f"agent:{i:02d}" for i in range(size)]
    k = data.draw(st.integers(0, size))
    first = choose(seed, items, k)
    assert first == choose(seed, items, k)
    assert len(set(first)) == k
    assert set(first) <= set(items)


def test_choose_is_uniform_over_positions() -> None:
    counts: Counter[str] = Counter()
    items = ["a", "b", "c", "d", "e"]
    for i in range(5000):
        counts[choose(hashlib.sha256(i.to_bytes(4, "big")).digest(), items, 1)[0]] += 1
    assert all(900 <= counts[item] <= 1100 for item in items)  # expected 1000, sd ~28
