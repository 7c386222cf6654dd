"""Shared by the service benchmarks: a configured instance with reviewer keys, `accord serve`
processes started and stopped, and their CPU time."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.cli.demo import demo_config
from accord.cli.key_commands import register_new_key

#: Reviewers who own no party agent of the demo's refunds (the controller owns agent:billing).
REVIEWERS = ("human:treasurer", "human:deputy")
REFUND = [
    {"agent": "agent:billing", "output": "approve", "confidence": 0.7},
    {"agent": "agent:audit", "output": "reject", "confidence": 0.65},
]


@dataclass(frozen=True)
class Instance:
    """A config, database and key folder, with API keys minted in it."""

    config: Path
    url: str
    keys: Path
    admin: str
    reviewers: tuple[str, ...]

    def open(self) -> Accord:
        return Accord.open(self.config, db_url=self.url, keys_dir=self.keys)


def prepare(directory: Path, url: str) -> Instance:
    """The demo company with both reviewers configured and holding registered reviewer keys."""
    path = demo_config(directory)
    config = json.loads(path.read_text(encoding="utf-8"))
    config["approvals"]["principals"] = {p: ["finance_approver"] for p in REVIEWERS}
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    keys = directory / "keys"
    accord = Accord.open(path, db_url=url, keys_dir=keys)
    try:
        store = ApiKeyStore(accord.ledger, accord.clock)
        for principal in REVIEWERS:
            register_new_key(accord, None, "reviewer", principal, None)
        reviewers = tuple(store.create("reviewer", principal_id=p)[1] for p in REVIEWERS)
        admin = store.create("admin")[1]
    finally:
        accord.close()
    return Instance(path, url, keys, admin, reviewers)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of a process and its live child processes (the worker
    processes of ``accord serve --workers N``)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(_ended_as_zero(child) for child in _children(pid))


def _ended_as_zero(pid: int) -> float:
    try:
        return cpu_seconds(pid)
    except OSError:  # a child that ended meanwhile
        return 0.0


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as fh:
                found += [int(c) for c in fh.read().split()]
    except OSError:  # the process (or a thread) just ended
        pass
    return found


@contextmanager
def serving(instance: Instance, *extra: str) -> Iterator[tuple[str, int]]:
    """One `accord serve` (no sweeper, no access log) on a free port: (base URL, pid)."""
    port = free_port()
    accord_bin = Path(sys.executable).with_name("accord")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACCORD_")}
    command: Sequence[str] = [
        str(accord_bin), "serve", "--db", instance.url, "--keys", str(instance.keys),
        "--config", str(instance.config), "--port", str(port), "--no-sweeper",
        "--no-access-log", *extra,
    ]
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.2)
        yield base, server.pid
    finally:
        server.terminate()
        server.wait(timeout=30)


def p99(values: Sequence[float]) -> float:
    return percentile(values, 0.99)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


def server_ms(answer: httpx.Response) -> float:
    """The server's own time for a request (its ``Server-Timing: app;dur=`` header)."""
    timing = answer.headers.get("server-timing", "")
    _, _, value = timing.partition("dur=")
    return float(value) if value else float("nan")
