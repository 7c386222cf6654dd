"""This checkout against the previous release, in one run (issue 11: settle_many and ledger
append within 5 % of the previous release).

The previous release's source is exported from git (``git archive``, into a temporary
folder; nothing in the checkout changes) and both trees are timed by the same child script
(`release_child.py`), several rounds, old and new in turn (the order swapped every round).
Each run is a fresh child process: settle_many over the same tier-1 requests, and
Ledger.append_many over the same records, on SQLite. The figure per tree is its best round
in CPU time per item (the least disturbed by other work on this shared machine); wall time
is reported beside it. Where valgrind is installed, callgrind also counts the instructions
of each part in each tree: a figure that other work on the machine does not move.

``ACCORD_BENCH_BASELINE`` names the commit to compare with (default: the release before the
house restructuring).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from common import Result

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PREVIOUS_RELEASE = "066a442"
TARGET = 1.05


def _export(commit: str, into: Path) -> Path:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "src", "benchmarks"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree / "src"), "PYTHONHASHSEED": "0"}


def _round(tree: Path, cases: int, entries: int) -> dict[str, float]:
    out = subprocess.run(
        [
            sys.executable,
            str(HERE / "release_child.py"),
            str(tree),
            str(cases),
            str(entries),
            "time",
        ],
        check=True,
        capture_output=True,
        text=True,
        env=_env(tree),
    ).stdout
    figures: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return figures


def _start_count(tree: Path, part: str, cases: int, entries: int) -> subprocess.Popen[str]:
    """A child under callgrind that counts only ``part`` (settle or append)."""
    return subprocess.Popen(
        [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            str(HERE / "release_child.py"),
            str(tree),
            str(cases),
            str(entries),
            f"count-{part}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(tree),
    )


def _collected(child: subprocess.Popen[str]) -> int:
    _, err = child.communicate()
    if child.returncode != 0:
        raise RuntimeError(f"callgrind child failed: {err[-300:]}")
    found = re.search(r"Collected : (\d+)", err)
    if found is None:
        raise RuntimeError("callgrind printed no instruction count")
    return int(found.group(1))


def _instructions(trees: dict[str, Path], cases: int, entries: int) -> dict[str, dict[str, float]]:
    """Instructions per item of each part in each tree: the same for the same inputs whatever
    else the machine runs (the two trees are counted side by side)."""
    counts: dict[str, dict[str, float]] = {name: {} for name in trees}
    for part, items in (("settle", cases), ("append", entries)):
        children = {name: _start_count(tree, part, cases, entries) for name, tree in trees.items()}
        for name, child in children.items():
            counts[name][part] = _collected(child) / items
    return counts


def run(quick: bool) -> list[Result]:
    baseline = os.environ.get("ACCORD_BENCH_BASELINE", PREVIOUS_RELEASE)
    cases, entries, rounds = (600, 2_000, 3) if quick else (2_000, 10_000, 6)
    with tempfile.TemporaryDirectory(prefix="accord-release-") as tmp:
        old = _export(baseline, Path(tmp) / "old")
        trees = {"previous release": old, "this checkout": ROOT}
        best: dict[str, dict[str, float]] = {name: {} for name in trees}
        for turn in range(rounds):  # ABBA: neither tree always runs second
            order = list(trees.items()) if turn % 2 == 0 else list(trees.items())[::-1]
            for name, tree in order:
                for key, value in _round(tree, cases, entries).items():
                    best[name][key] = min(best[name].get(key, value), value)
        counted = _instructions(trees, 300, 2_000) if shutil.which("valgrind") else None
    results = []
    for part, key, label, unit in (
        ("settle", "settle_cpu_us", "settle_many, CPU per case", "us/case"),
        ("append", "append_cpu_us", "ledger append_many, CPU per entry", "us/entry"),
    ):
        new, prev = best["this checkout"][key], best["previous release"][key]
        wall = key.replace("cpu", "wall")
        results.append(
            Result(
                f"{label} (SQLite)",
                new,
                unit,
                baseline=f"previous release {baseline}: {prev:.1f}",
                ratio=new / prev,
                target=f"<= {TARGET:.2f}x",
                passed=new / prev <= TARGET,
                notes=(
                    f"best of {rounds} interleaved rounds; wall {best['this checkout'][wall]:.1f}"
                    f" vs {best['previous release'][wall]:.1f}"
                ),
            )
        )
        if counted is not None:
            n_new, n_prev = counted["this checkout"][part], counted["previous release"][part]
            results.append(
                Result(
                    f"{label.split(',')[0]}, instructions per item (callgrind)",
                    n_new,
                    "instr/item",
                    baseline=f"previous release {baseline}: {n_prev:,.0f}",
                    ratio=n_new / n_prev,
                    target=f"<= {TARGET:.2f}x",
                    passed=n_new / n_prev <= TARGET,
                    notes="counted, not timed: repeatable on a busy machine",
                )
            )
    return results
