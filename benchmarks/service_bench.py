"""Service benchmark (issue 13): 50 concurrent loopback clients against one `accord serve`
on SQLite, listing the queue, settling and deciding; requests/s and p99 latency, and the
server's settle rate as a ratio to the library's own settle rate measured in the same run.

The clients (httpx, asyncio) run in this process and share the machine's cores with the
server, so the figures are a floor for what a remote client fleet would see.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from common import Result

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.cli.demo import demo_config

CLIENTS = 50
REFUND = [
    {"agent": "agent:billing", "output": "approve", "confidence": 0.7},
    {"agent": "agent:audit", "output": "reject", "confidence": 0.65},
]


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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
                answer = await request
                latencies[kind].append(time.perf_counter() - began)
                if answer.status_code >= 400:
                    errors.append(answer.status_code)

        await asyncio.gather(*(one_client(i) for i in range(CLIENTS)))
    latencies["errors"] = [float(e) for e in errors]
    return latencies


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0


def run(quick: bool) -> list[Result]:
    seconds = 5.0 if quick else 20.0
    with tempfile.TemporaryDirectory() as tmp:
        base_dir = Path(tmp)
        config = demo_config(base_dir)
        url = f"sqlite:///{base_dir / 'bench.db'}"
        keys_dir = base_dir / "keys"
        accord = Accord.open(config, db_url=url, keys_dir=keys_dir)
        library = _library_rate(accord, 200 if quick else 1000)
        items = []
        for i in range(300 if quick else 1000):
            case = accord.settle(f"refund {i}", REFUND, task_type="refunds")
            assert case.approval_item_id is not None
            items.append(case.approval_item_id)
        store = ApiKeyStore(accord.db, accord.clock)
        admin = store.create("admin")[1]
        reviewer = store.create("reviewer", principal_id="human:controller")[1]
        accord.close()
        port = _free_port()
        accord_bin = Path(sys.executable).with_name("accord")
        env = {k: v for k, v in os.environ.items() if not k.startswith("ACCORD_")}
        server = subprocess.Popen(
            [str(accord_bin), "serve", "--db", url, "--keys", str(keys_dir), "--config",
             str(config), "--port", str(port), "--no-sweeper", "--no-access-log"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            began = time.perf_counter()
            latencies = asyncio.run(_load(base, admin, reviewer, items, seconds))
            elapsed = time.perf_counter() - began
        finally:
            server.terminate()
            server.wait(timeout=30)
        verified = Accord.open(config, db_url=url, keys_dir=keys_dir)
        report = verified.verify()
        verified.close()
    every = latencies["list"] + latencies["settle"] + latencies["decide"]
    total_rate = len(every) / elapsed
    settle_rate = len(latencies["settle"]) / elapsed
    errors = len(latencies["errors"])
    return [
        Result(
            f"service: {CLIENTS} clients, list+settle+decide (SQLite, 1 worker)",
            round(total_rate, 1),
            "requests/s",
            target=">= 1000 req/s",
            passed=total_rate >= 1000,
            notes=f"{errors} error answers; ledger verified ({report.entries} entries)",
        ),
        Result(
            "service: p99 latency, all requests",
            round(_p99(every) * 1000, 1),
            "ms",
            target="< 100 ms",
            passed=_p99(every) < 0.1,
            notes=(
                f"p99 list {_p99(latencies['list']) * 1000:.0f} ms, settle "
                f"{_p99(latencies['settle']) * 1000:.0f} ms, decide "
                f"{_p99(latencies['decide']) * 1000:.0f} ms"
            ),
        ),
        Result(
            "service: settles over HTTP",
            round(settle_rate, 1),
            "cases/s",
            baseline=f"library settle() {library:.0f} cases/s",
            ratio=round(settle_rate / library, 3),
            notes="while the same server also answers lists and decisions",
        ),
    ]
