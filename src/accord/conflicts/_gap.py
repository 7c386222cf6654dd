"""Numeric agreement: the relative gap between two numbers, and clusters of agreeing values."""

from __future__ import annotations

import math
from collections.abc import Sequence

ROUNDING_SLACK = 1e-12
"""Gaps within this of a threshold count as on it: ``0.09`` vs ``0.1`` is exactly 10 %."""


def relative_gap(a: float, b: float, tolerance: float) -> float:
    """``|a − b| / max(|a|, |b|)``, or 0 when ``|a − b| ≤ tolerance`` (this decides near zero)."""
    difference = abs(a - b)
    if difference <= tolerance:
        return 0.0
    scale = max(abs(a), abs(b))
    if math.isinf(difference):  # opposite signs near the float limit: a − b overflowed
        return abs(a / scale - b / scale)
    return difference / scale


def exceeds(gap: float, threshold: float) -> bool:
    """True when ``gap`` lies above ``threshold`` by more than rounding noise."""
    return gap > threshold + ROUNDING_SLACK


def clusters(values: Sequence[float], conflict_gap: float, tolerance: float) -> list[list[int]]:
    """Indexes of ``values`` in clusters whose members are pairwise within ``conflict_gap``.

    Sort and sweep: a value joins the current cluster while its gap to the cluster's
    smallest value stays within the threshold (the gap grows with distance on one side of
    zero, so every pair inside is within it too). Clusters come in ascending value order,
    each listing its indexes in ascending order.
    """
    order = sorted(range(len(values)), key=values.__getitem__)
    result: list[list[int]] = []
    low = 0.0
    for index in order:
        value = values[index]
        if result and not exceeds(relative_gap(low, value, tolerance), conflict_gap):
            result[-1].append(index)
        else:
            result.append([index])
            low = value
    for cluster in result:
        cluster.sort()
    return result
