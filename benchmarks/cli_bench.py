"""CLI start-up (issue 30): wall time of `accord --help`, `accord verify --help` and a read-only
`accord cases`, each against bare `python -c 'import accord'` in the same run (median of 7,
alternating). Target: `accord --help` ≤ 0.4 s.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import Result

TARGET_S = 0.4
RUNS = 7


def _wall(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False, timeout=120)
    return time.perf_counter() - started


def run(quick: bool) -> list[Result]:
    runs = 3 if quick else RUNS
    accord_bin = str(Path(sys.executable).with_name("accord"))
    commands = {
        "import accord (baseline)": [sys.executable, "-c", "import accord"],
        "accord --help": [accord_bin, "--help"],
        "accord verify --help": [accord_bin, "verify", "--help"],
        "accord cases (10 cases)": [accord_bin, "cases", "--db", "sqlite:///b.db"],
    }
    with tempfile.TemporaryDirectory() as folder:
        cwd = Path(folder)
        env = {**os.environ, "COLUMNS": "120"}
        seed = "from accord import Accord\n"
        seed += "a = Accord.open(db_url='sqlite:///b.db', keys_dir='k')\n"
        seed += "[a.settle(f'q{i}', [{'agent': 'agent:a', 'output': i}, "
        seed += "{'agent': 'agent:b', 'output': i + 1}]) for i in range(10)]\na.close()\n"
        subprocess.run([sys.executable, "-c", seed], cwd=cwd, env=env, check=True)
        env["ACCORD_KEYS"] = str(cwd / "k")
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, argv in commands.items():
                times[name].append(_wall(argv, cwd, env))
    base = statistics.median(times["import accord (baseline)"])
    results = [Result("import accord (baseline)", base, "s", notes=f"median of {runs}")]
    for name in list(commands)[1:]:
        value = statistics.median(times[name])
        is_help = name == "accord --help"
        results.append(
            Result(
                name,
                value,
                "s",
                baseline=f"{base:.3f} s import",
                ratio=value / base,
                target=f"≤ {TARGET_S} s" if is_help else "",
                passed=(value <= TARGET_S) if is_help else None,
                notes=f"median of {runs}, alternating",
            )
        )
    return results
