"""Shared helpers for the benchmark scripts: timing, process-tree memory, result tables."""

from __future__ import annotations

import json
import os
import platform
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

RESULTS_DIR = Path(__file__).resolve().parents[1] / "bench-results"


@dataclass
class Result:
    name: str
    value: float
    unit: str
    baseline: str = ""
    ratio: float | None = None
    target: str = ""
    passed: bool | None = None
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def rate(count: int, fn: Callable[[], None]) -> float:
    """Operations per second of ``fn`` doing ``count`` operations."""
    began = time.perf_counter()
    fn()
    return count / (time.perf_counter() - began)


def _pss_kb(pid: int) -> int:
    """Proportional set size: shared pages (forked workers) are split, not counted twice."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        return 0
    return 0


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


class TreeMemorySampler:
    """Samples the summed PSS of a process and all its descendants; keeps the peak."""

    def __init__(self, pid: int, interval: float = 0.2) -> None:
        self.pid, self.interval, self.peak_kb = pid, interval, 0
        self._tree: list[int] = [pid]
        self._rescan_at = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            now = time.monotonic()
            if now >= self._rescan_at:  # scanning all of /proc is costly: once a second
                self._tree = [self.pid, *_descendants(self.pid)]
                self._rescan_at = now + 1.0
            total = sum(_pss_kb(p) for p in self._tree)
            self.peak_kb = max(self.peak_kb, total)
            self._stop.wait(self.interval)

    def __enter__(self) -> TreeMemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _fmt(value: float) -> str:
    """Large figures with thousands separators; small ones (accuracies, seconds) with 4 places."""
    return f"{value:,.1f}" if abs(value) >= 100 else f"{value:.4f}"


def report(results: list[Result], title: str, slug: str) -> Path:
    table = Table(title=title)
    for col in ("benchmark", "value", "baseline", "ratio", "target", "ok", "notes"):
        table.add_column(col)
    for r in results:
        ok = "" if r.passed is None else ("yes" if r.passed else "NO")
        table.add_row(
            r.name,
            f"{_fmt(r.value)} {r.unit}",
            r.baseline,
            "" if r.ratio is None else f"{r.ratio:.2f}x",
            r.target,
            ok,
            r.notes,
        )
    Console(width=200).print(table)
    RESULTS_DIR.mkdir(exist_ok=True)
    payload = {
        "title": title,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "results": [asdict(r) for r in results],
    }
    path = RESULTS_DIR / f"{slug}.json"
    path.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    print(f"saved {path}")
    return path


def settle_request(accord: Any, request: Any) -> Any:
    """``accord.settle`` of one prepared ``SettleRequest`` (for ``pool.map``)."""
    return accord.settle(
        request.subject,
        request.positions,
        task_type=request.task_type,
        session_id=request.session_id,
    )
