"""A large output is not copied over and over while it is settled: the peak of allocations
stays a small multiple of the outputs' JSON size (24x at this size on the previous release,
under 13x now; the 10 MB figure is in `make bench`, memory section)."""

from __future__ import annotations

import json
import tracemalloc

from accord.cases import Settler, SettleRequest

ROWS = 4000


def tables() -> tuple[dict[str, object], dict[str, object]]:
    first = [{"id": i, "name": f"item-{i:08d}", "qty": i % 7} for i in range(ROWS)]
    second = [dict(row) for row in first]
    second[ROWS // 2]["qty"] = -1
    return {"rows": first}, {"rows": second}


def test_settling_a_large_output_peaks_at_a_small_multiple_of_its_size(settler: Settler) -> None:
    first, second = tables()
    size = len(json.dumps(first)) + len(json.dumps(second))
    warm_up = [{"agent": "a", "output": 1}, {"agent": "b", "output": 2}]
    settler.settle(SettleRequest("warm-up", warm_up))
    request = SettleRequest(
        "a large table",
        [
            {"agent": "agent:a", "output": first, "confidence": 0.9},
            {"agent": "agent:b", "output": second, "confidence": 0.6},
        ],
    )
    tracemalloc.start()
    try:
        case = settler.settle(request)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    assert case.detection.field_conflicts[0].path == "rows"
    assert peak < 18 * size, f"peak {peak / size:.1f}x the outputs' JSON size"


def test_a_long_answer_is_shortened_in_the_description_not_copied_whole(
    settler: Settler,
) -> None:
    long_a, long_b = "a " * 5000, "b " * 5000
    case = settler.settle(
        SettleRequest("essay", [{"agent": "x", "output": long_a}, {"agent": "y", "output": long_b}])
    )

    assert len(case.detection.description) < 600
    assert case.positions[0].output == long_a
