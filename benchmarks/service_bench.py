"""Service benchmark (issue 13): 50 concurrent loopback clients against one `accord serve`
on SQLite, listing the queue, settling and deciding; requests/s and p99 latency, and the
server's settle rate as a ratio to the library's own settle rate measured in the same run.

Two drivers, one after the other against the same server: a separate process with 50 lean
keep-alive connections on raw asyncio streams (``load_child.py``), and 50 httpx clients in
this process (as before). Both share the machine's cores with the server, so the figures
are a floor for what a remote client fleet would see; the server's own CPU time per request
(from /proc) is reported too, with the rate one core would reach at that cost.

``ACCORD_BENCH_SERVICE_WORKERS=N`` serves with ``--workers N`` (the CPU time is then the
sum over the worker processes). ``ACCORD_BENCH_SERVICE_KINDS=1`` adds one short phase per kind
of request (list alone, settle alone, decide alone, and ``GET /health`` for the HTTP stack
alone) with the server's CPU-ms per request of each.

With ``ACCORD_BENCH_SERVICE_BASELINE=<git revision>`` (e.g. the previous release) the same
separate-client load also runs against that revision's code and dependency set (its ``src``
from ``git archive``; uvloop and httptools hidden unless its pyproject lists them), in this
run, for an old-vs-new ratio.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
from common import Result
from service_common import REFUND, Instance, cpu_seconds, p99, prepare, serving

from accord.app import Accord

CLIENTS = 50
_CHILD = Path(__file__).with_name("load_child.py")
_WORKERS = int(os.environ.get("ACCORD_BENCH_SERVICE_WORKERS") or 1)
#: The single-kind phases of ``ACCORD_BENCH_SERVICE_KINDS=1`` (``health``: the HTTP stack).
_KINDS = ("list", "settle", "decide", "health")


def _labels(i: int) -> dict[str, object]:
    return {
        "subject": f"ticket {i}",
        "task_type": "triage",
        "positions": [
            {"agent": "agent:backend", "output": "bug"},
            {"agent": "agent:frontend", "output": "bug"},
            {"agent": "agent:qa", "output": "feature"},
        ],
    }


def _library_rate(accord: Accord, n: int) -> float:
    began = time.perf_counter()
    for i in range(n):
        body = _labels(i)
        accord.settle(str(body["subject"]), body["positions"], task_type="triage")  # type: ignore[arg-type]
    return n / (time.perf_counter() - began)


async def _load(
    base: str, admin: str, reviewer: str, items: list[str], seconds: float
) -> dict[str, list[float]]:
    latencies: dict[str, list[float]] = {"list": [], "settle": [], "decide": []}
    errors: list[int] = []
    stop_at = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30.0) as client:

        async def one_client(index: int) -> None:
            n = 0
            while time.perf_counter() < stop_at:
                n += 1
                if n % 5 == 0 and items:
                    kind, item = "decide", items.pop()
                    request = client.post(
                        f"/api/v1/approvals/{item}/decision",
                        json={"choice": "reject", "reasoning": "bench"},
                        headers={"Authorization": f"Bearer {reviewer}"},
                    )
                elif n % 2 == 0:
                    kind = "settle"
                    request = client.post(
                        "/api/v1/settle",
                        json=_labels(index * 100_000 + n),
                        headers={"Authorization": f"Bearer {admin}"},
                    )
                else:
                    kind = "list"
                    request = client.get(
                        "/api/v1/approvals",
                        params={"limit": 20},
                        headers={"Authorization": f"Bearer {admin}"},
                    )
                began = time.perf_counter()
                try:
                    answer = await request
                except httpx.TransportError:  # counted (as status 0), not fatal
                    errors.append(0)
                    continue
                latencies[kind].append(time.perf_counter() - began)
                if answer.status_code >= 400:
                    errors.append(answer.status_code)

        await asyncio.gather(*(one_client(i) for i in range(CLIENTS)))
    latencies["errors"] = [float(e) for e in errors]
    return latencies


def _escalated(instance: Instance, n: int) -> list[str]:
    accord = instance.open()
    try:
        out = []
        for i in range(n):
            case = accord.settle(f"refund {i}", REFUND, task_type="refunds")
            assert case.approval_item_id is not None
            out.append(case.approval_item_id)
        return out
    finally:
        accord.close()


def _phase(name: str, run: object, pid: int) -> dict[str, object]:
    """Run one driver; its latencies, elapsed wall time, and the server's CPU meanwhile."""
    cpu_before, began = cpu_seconds(pid), time.perf_counter()
    latencies, errors, client_cpu = run()  # type: ignore[operator]
    elapsed = time.perf_counter() - began
    every = latencies["list"] + latencies["settle"] + latencies["decide"]
    return {
        "name": name,
        "latencies": latencies,
        "every": every,
        "errors": errors,
        "elapsed": elapsed,
        "rate": len(every) / elapsed,
        "server_cpu_ms": (cpu_seconds(pid) - cpu_before) / max(len(every), 1) * 1000,
        "client_cpu": client_cpu / elapsed,
    }


def _results(phase: dict[str, object], library: float, entries: int) -> list[Result]:
    lat: dict[str, list[float]] = phase["latencies"]  # type: ignore[assignment]
    every: list[float] = phase["every"]  # type: ignore[assignment]
    rate = float(phase["rate"])  # type: ignore[arg-type]
    cpu_ms = float(phase["server_cpu_ms"])  # type: ignore[arg-type]
    settle_rate = len(lat["settle"]) / float(phase["elapsed"])  # type: ignore[arg-type]
    statuses = Counter(int(e) for e in phase["errors"])  # type: ignore[attr-defined]
    errors = f"{sum(statuses.values())} error answers" + (
        f" (status: count {dict(statuses)}; 0 = connection dropped)" if statuses else ""
    )
    name = phase["name"]
    return [
        Result(
            f"service ({name}): {CLIENTS} clients, list+settle+decide (SQLite, "
            f"{_WORKERS} worker{'s' if _WORKERS > 1 else ''})",
            round(rate, 1),
            "requests/s",
            baseline=f"library settle() {library:.0f} cases/s",
            ratio=round(rate / library, 3),
            target=">= 1000 req/s",
            passed=rate >= 1000,
            notes=(
                f"{errors}; server {cpu_ms:.2f} CPU-ms/request (one core: "
                f"{1000 / cpu_ms:.0f} req/s); client CPU {float(phase['client_cpu']):.0%} "  # type: ignore[arg-type]
                f"of a core; ledger verified ({entries} entries)"
            ),
            extra={"server_cpu_ms_per_request": round(cpu_ms, 3), "requests": len(every)},
        ),
        Result(
            f"service ({name}): p99 latency, all requests",
            round(p99(every) * 1000, 1),
            "ms",
            target="< 100 ms",
            passed=p99(every) < 0.1,
            notes=(
                f"p99 list {p99(lat['list']) * 1000:.0f} ms, settle "
                f"{p99(lat['settle']) * 1000:.0f} ms, decide {p99(lat['decide']) * 1000:.0f} ms"
            ),
        ),
        Result(
            f"service ({name}): settles over HTTP",
            round(settle_rate, 1),
            "cases/s",
            baseline=f"library settle() {library:.0f} cases/s",
            ratio=round(settle_rate / library, 3),
            notes="while the same server also answers lists and decisions",
        ),
    ]


def _per_kind() -> bool:
    return bool(os.environ.get("ACCORD_BENCH_SERVICE_KINDS"))


def _kind_result(phase: dict[str, object]) -> Result:
    """One single-kind phase: the server's CPU-ms per request of that kind."""
    every: list[float] = phase["every"]  # type: ignore[assignment]
    cpu_ms = float(phase["server_cpu_ms"])  # type: ignore[arg-type]
    errors = len(phase["errors"])  # type: ignore[arg-type]
    return Result(
        f"service: {phase['name']} alone, {CLIENTS} clients ({len(every)} requests)",
        round(cpu_ms, 3),
        "server CPU-ms/request",
        notes=(
            f"{float(phase['rate']):.0f} req/s, p99 {p99(every) * 1000:.0f} ms, "  # type: ignore[arg-type]
            f"{errors} error answers"
        ),
    )


def _baseline(revision: str, seconds: float, n: int) -> dict[str, object]:
    """The separate-client phase against ``revision``'s code, in a process of its own."""
    repo = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        archive = subprocess.run(
            ["git", "-C", str(repo), "archive", revision, "src"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
        pyproject = subprocess.run(
            ["git", "-C", str(repo), "show", f"{revision}:pyproject.toml"],
            capture_output=True, text=True, check=True,
        ).stdout
        (root / "hide").mkdir()
        for hidden in ("uvloop", "httptools"):  # not dependencies before issue 13
            if f'"{hidden}' in pyproject:  # the revision depends on it: keep it
                continue
            (root / "hide" / hidden).mkdir(parents=True)
            (root / "hide" / hidden / "__init__.py").write_text(
                "raise ImportError('hidden for the baseline')\n", encoding="utf-8"
            )
        env = {**os.environ, "PYTHONPATH": f"{root / 'hide'}:{root / 'src'}"}
        child = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("service_baseline_child.py")),
             str(seconds), str(n), str(_WORKERS)],
            capture_output=True, text=True, check=True, env=env,
        )
    answer = json.loads(child.stdout)
    every = [t for kind in answer["latencies"].values() for t in kind]
    return {
        "rate": len(every) / answer["elapsed"],
        "p99": p99(every),
        "server_cpu_ms": answer["server_cpu"] / max(len(every), 1) * 1000,
    }


def run(quick: bool) -> list[Result]:
    seconds = 5.0 if quick else 20.0
    with tempfile.TemporaryDirectory() as tmp:
        base_dir = Path(tmp)
        instance = prepare(base_dir, f"sqlite:///{base_dir / 'bench.db'}")
        accord = instance.open()
        library = _library_rate(accord, 200 if quick else 1000)
        accord.close()
        per_phase = 600 if quick else 3000
        items = _escalated(instance, 2 * per_phase)
        child_items, own_items = items[:per_phase], items[per_phase:]
        items_file = base_dir / "items.json"
        items_file.write_text(json.dumps(child_items), encoding="utf-8")
        reviewer = instance.reviewers[0]
        phases = []
        kinds_file = base_dir / "kind_items.json"
        kind_items = _escalated(instance, per_phase) if _per_kind() else []
        per_kind: list[Result] = []
        serve_options = ("--workers", str(_WORKERS)) if _WORKERS > 1 else ()
        with serving(instance, *serve_options) as (base, pid):

            def separate(
                kind: str = "mix", listed: Path = items_file, seconds: float = seconds
            ) -> tuple[dict[str, list[float]], list[int], float]:
                child = subprocess.run(
                    [sys.executable, str(_CHILD), base, str(seconds), str(CLIENTS),
                     instance.admin, reviewer, str(listed), kind],
                    capture_output=True, text=True, check=True,
                )
                answer = json.loads(child.stdout)
                return answer["latencies"], answer["errors"], float(answer.get("cpu", 0.0))


            def in_process() -> tuple[dict[str, list[float]], list[int], float]:
                cpu = time.process_time()
                lat = asyncio.run(_load(base, instance.admin, reviewer, own_items, seconds))
                errors = [int(e) for e in lat.pop("errors")]
                return lat, errors, time.process_time() - cpu

            phases.append(_phase("separate lean client process", separate, pid))
            phases.append(_phase("httpx clients in the bench process", in_process, pid))
            if kind_items:  # after the mixed phases, so that they match the baseline's
                kinds_file.write_text(json.dumps(kind_items), encoding="utf-8")
                for kind in _KINDS:
                    one = _phase(
                        kind, lambda k=kind: separate(k, kinds_file, seconds / 4), pid
                    )
                    per_kind.append(_kind_result(one))
        accord = instance.open()
        entries = accord.verify().entries
        accord.close()
    results = [r for phase in phases for r in _results(phase, library, entries)] + per_kind
    revision = os.environ.get("ACCORD_BENCH_SERVICE_BASELINE")
    if revision:
        old = _baseline(revision, seconds, per_phase)
        new = phases[0]
        results.append(
            Result(
                "service (separate lean client process): this code vs the baseline revision",
                round(float(new["rate"]), 1),  # type: ignore[arg-type]
                "requests/s",
                baseline=(
                    f"{revision}: {float(old['rate']):.1f} req/s, p99 "  # type: ignore[arg-type]
                    f"{float(old['p99']) * 1000:.0f} ms, "  # type: ignore[arg-type]
                    f"{float(old['server_cpu_ms']):.2f} CPU-ms/request"  # type: ignore[arg-type]
                ),
                ratio=round(float(new["rate"]) / float(old["rate"]), 2),  # type: ignore[arg-type]
                notes=f"this code: p99 {p99(new['every']) * 1000:.0f} ms",  # type: ignore[arg-type]
            )
        )
    return results
