"""One round of `release_bench.py` in the tree on PYTHONPATH.

``time``: CPU and wall time per item of settle_many and of Ledger.append_many on SQLite (one
JSON line). ``count-settle`` / ``count-append``: run under ``valgrind --tool=callgrind
--instr-atstart=no``, switch instrumentation on around that one part only (callgrind_control),
so the instruction count callgrind reports is that part's alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

tree = Path(sys.argv[1])
sys.path.insert(0, str(tree / "benchmarks"))

from ledger_bench import BATCH, SEED, record
from settle_bench import make_requests

from accord.app import Accord
from accord.clock import SystemClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger
from accord.store import open_database

WARM = 50


def _instrument(on: bool) -> None:
    subprocess.run(
        ["callgrind_control", "-i", "on" if on else "off", str(os.getpid())],
        check=True,
        capture_output=True,
    )


def _timed(work: Callable[[], None], counting: bool) -> tuple[float, float]:
    if counting:
        _instrument(True)
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if counting:
        _instrument(False)
    return cpu, wall


def main() -> None:
    cases, entries, mode = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if mode in ("time", "count-settle"):
            requests = make_requests(cases + WARM)
            config = Path(tmp) / "bench.yaml"
            config.write_text(
                f"database: {{url: 'sqlite:///{tmp}/settle.db', sqlite_synchronous: NORMAL}}\n"
                f"keys: {{directory: {tmp}/keys}}\nlearning: {{refit_every: 100000}}\n"
            )
            accord = Accord.open(config, clock=SystemClock())
            accord.settle_many(requests[:WARM])

            def settle() -> None:
                for start in range(WARM, WARM + cases, 500):
                    accord.settle_many(requests[start : min(start + 500, WARM + cases)])

            cpu, wall = _timed(settle, mode != "time")
            figures |= {"settle_cpu_us": cpu / cases * 1e6, "settle_wall_us": wall / cases * 1e6}
            accord.close()
        if mode in ("time", "count-append"):
            db = open_database(f"sqlite:///{tmp}/ledger.db")
            ledger = Ledger(db, Ed25519Signer.from_seed(SEED), SystemClock())
            ledger.append_many([("dispute_resolved", record(i)) for i in range(WARM)])

            def append() -> None:
                for start in range(WARM, WARM + entries, BATCH):
                    ledger.append_many(
                        [("dispute_resolved", record(i)) for i in range(start, start + BATCH)]
                    )

            cpu, wall = _timed(append, mode != "time")
            figures |= {
                "append_cpu_us": cpu / entries * 1e6,
                "append_wall_us": wall / entries * 1e6,
            }
            db.dispose()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
