"""Memory benchmarks (issue 10, bounded input): what one large output costs to settle, and
what ``accord settle`` of a large file costs streamed in batches versus in one call.

* a case whose outputs total 10 MB of JSON (``--quick``: 1 MB), settled through the library:
  the peak of Python allocations during ``Accord.settle`` (tracemalloc), over the outputs'
  JSON size; the outputs themselves exist before the call and are not counted;
* one position whose reasoning is a 50 MB string (``--quick``: 5 MB), settled through the
  library into the people's queue: the tracemalloc peak over the string's size (issue 31's
  target: ≤ 4×);
* 50,000 cases (``--quick``: 10,000): ``accord settle FILE.jsonl`` (streamed, batches of
  ``limits.cases_per_batch``) against ``Accord.settle_many`` of the whole list at once (what
  ``accord settle`` did before), both in child processes, peak PSS.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import textwrap
import tracemalloc
from pathlib import Path

from common import Result, TreeMemorySampler
from settle_bench import make_requests

from accord.app import Accord

MB = 1_000_000


def large_outputs(total_bytes: int) -> tuple[dict[str, object], dict[str, object]]:
    """Two agents' tables of rows (small mappings: the costliest shape per byte), differing in
    one cell; together ``total_bytes`` of JSON, roughly."""
    rows = total_bytes // 2 // 45
    first = {"rows": [{"id": i, "name": f"item-{i:08d}", "qty": i % 7} for i in range(rows)]}
    second = {"rows": [dict(row) for row in first["rows"]]}  # type: ignore[attr-defined]
    second["rows"][rows // 2]["qty"] = -1  # type: ignore[index]
    return first, second


def _large_output_peak(total_bytes: int) -> tuple[float, int, float]:
    first, second = large_outputs(total_bytes)
    size = len(json.dumps(first)) + len(json.dumps(second))
    with tempfile.TemporaryDirectory() as tmp:
        accord = Accord.open(db_url=f"sqlite:///{tmp}/a.db", keys_dir=f"{tmp}/keys")
        accord.settle("warm-up", [{"agent": "a", "output": 1}, {"agent": "b", "output": 2}])
        positions = [
            {"agent": "agent:a", "output": first, "confidence": 0.9},
            {"agent": "agent:b", "output": second, "confidence": 0.6},
        ]
        tracemalloc.start()
        try:
            accord.settle("a large table", positions)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            accord.close()
    return peak / size, size, peak / MB


def _long_reasoning_peak(chars: int) -> tuple[float, float]:
    reasoning = "r" * chars
    with tempfile.TemporaryDirectory() as tmp:
        accord = Accord.open(db_url=f"sqlite:///{tmp}/a.db", keys_dir=f"{tmp}/keys")
        accord.settle("warm-up", [{"agent": "a", "output": 1}, {"agent": "b", "output": 2}])
        positions = [
            {"agent": "agent:a", "output": "approve", "reasoning": reasoning},
            {"agent": "agent:b", "output": "reject", "reasoning": "no receipt"},
        ]
        tracemalloc.start()
        try:
            accord.settle("a long reasoning", positions, task_type="refunds")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            accord.close()
    return peak / chars, peak / MB


_ALL_AT_ONCE = textwrap.dedent(
    """
    import json, sys
    from accord.app import Accord
    from accord.cases import SettleRequest
    accord = Accord.open(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as fh:
        requests = [SettleRequest(**json.loads(line)) for line in fh]
    accord.settle_many(requests)
    accord.close()
    """
)


def _peak_mb(command: list[str], cwd: str) -> float:
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL)
    with TreeMemorySampler(process.pid) as sampler:
        code = process.wait()
    if code != 0:
        raise RuntimeError(f"{command[:3]} exited with {code}")
    return sampler.peak_kb / 1024


def _many_cases(n: int) -> list[Result]:
    with tempfile.TemporaryDirectory() as tmp:
        cases = Path(tmp) / "cases.jsonl"
        with cases.open("w", encoding="utf-8") as out:
            for request in make_requests(n, seed=11):
                case = {"subject": request.subject, "positions": list(request.positions)}
                out.write(json.dumps({**case, "task_type": request.task_type}) + "\n")
        peaks = {}
        for label in ("one call", "streamed"):
            config = Path(tmp) / f"{label[:3]}.yaml"
            config.write_text(
                f"database: {{url: 'sqlite:///{tmp}/{label[:3]}.db'}}\n"
                f"keys: {{directory: {tmp}/keys}}\nlearning: {{refit_every: 1000000}}\n"
                f"limits: {{cases_per_batch: {n if label == 'one call' else 1000}}}\n"
            )
            if label == "one call":
                command = [sys.executable, "-c", _ALL_AT_ONCE, str(config), str(cases)]
            else:
                command = [sys.executable, "-c", "from accord.cli.main import main; main()",
                           "settle", str(cases), "--config", str(config)]
            peaks[label] = _peak_mb(command, tmp)
    streamed, before = peaks["streamed"], peaks["one call"]
    return [
        Result(f"settle_many of {n:,} cases in one call (before)", before, "MB peak",
               notes="child process, PSS"),
        Result(
            f"accord settle of {n:,} cases, JSON Lines in batches of 1,000",
            streamed,
            "MB peak",
            baseline="one call",
            ratio=streamed / before,
            target="< 0.5 × one call",
            passed=streamed < 0.5 * before,
            notes="child process, PSS; whole file checked first",
        ),
    ]


def run(quick: bool) -> list[Result]:
    total = (1 if quick else 10) * MB
    ratio, size, peak = _large_output_peak(total)
    chars = (5 if quick else 50) * MB
    reasoning_ratio, reasoning_peak = _long_reasoning_peak(chars)
    return [
        Result(
            f"settle a case with one {chars / MB:.0f} MB reasoning: tracemalloc peak",
            reasoning_ratio,
            "× the reasoning",
            target="≤ 4×",
            passed=reasoning_ratio <= 4,
            notes=f"{reasoning_peak:.0f} MB peak; queued for people (case + item documents)",
        ),
        Result(
            f"settle a case with {size / MB:.1f} MB of outputs: tracemalloc peak",
            ratio,
            "× outputs",
            target="< 10×",
            passed=ratio < 10,
            notes=f"{peak:.0f} MB peak; rows of small mappings",
        ),
        *_many_cases(10_000 if quick else 50_000),
    ]
