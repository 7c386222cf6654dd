"""Webhooks (issue 30, item 5), on loopback with a real HTTP receiver thread.

1. Latency from a decision's commit to the receiver holding its ``item.decided`` delivery,
   p50/p99, with the delivery worker polling every 10 ms (``accord serve`` polls every
   ``webhooks.interval_seconds``, 2 s by default: add about half of it); baseline: a bare
   loopback POST of the same size in the same run.
2. 1,000 decisions (100 with ``--quick``) to a receiver that stores every other delivery and
   then answers 500 (its answer is lost): lost and duplicate-as-new counts, both targeted 0.
"""

from __future__ import annotations

import hashlib
import json
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
from common import Result

from accord import Accord
from accord.cases import SettleRequest
from accord.crypto import Ed25519Signer
from accord.errors import AccordError
from accord.webhooks import verify_delivery

POLL_SECONDS = 0.01


class _Receiver:
    def __init__(self, fail_every_other: bool) -> None:
        self.secret = ""
        self.fail_every_other = fail_every_other
        self.seen: set[str] = set()
        self.received: dict[str, float] = {}  # item id -> when its delivery was accepted
        self.new = 0
        self.calls = 0
        self.lock = threading.Lock()

    def receive(self, headers: dict[str, str], body: bytes) -> int:
        arrived = time.perf_counter()
        with self.lock:
            self.calls += 1
            if not self.secret:  # the baseline's bare POSTs
                return 200
            try:
                delivery = verify_delivery(
                    self.secret, headers, body, datetime.now(UTC), seen=self.seen
                )
            except AccordError as refused:
                return 200 if refused.code == "webhooks.replayed" else 400
            self.new += 1
            self.received[str(delivery.payload["data"]["item_id"])] = arrived
            return 500 if self.fail_every_other and self.calls % 2 else 200


@contextmanager
def _server(receiver: _Receiver) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            status = receiver.receive(dict(self.headers.items()), body)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hooks"
    finally:
        server.shutdown()
        server.server_close()


def _open(folder: Path, backoff: float) -> tuple[Accord, Ed25519Signer]:
    config = folder / "accord.yaml"
    config.write_text(
        json.dumps(
            {
                "conflict_resolution": {"strategy": "human"},
                "approvals": {"principals": {"human:alice": []}},
                "webhooks": {
                    "backoff_seconds": backoff,
                    "max_backoff_seconds": backoff * 8,
                    "max_attempts": 30,
                    "batch": 1000,
                    "deadline_warning_seconds": 0,
                },
            }
        )
    )
    accord = Accord.open(config, db_url=f"sqlite:///{folder / 'bench.db'}", keys_dir=folder / "k")
    signer = Ed25519Signer.from_seed(hashlib.sha256(b"human:alice").digest())
    accord.register_reviewer_key(signer.public_key, "human:alice")
    return accord, signer


def _escalated(accord: Accord, count: int) -> list[str]:
    requests = [
        SettleRequest(
            f"Total of invoice {n}",
            [
                {"agent": f"agent:a{n}", "output": 1200, "confidence": 0.8},
                {"agent": f"agent:b{n}", "output": 1450, "confidence": 0.8},
            ],
            "default",
            None,
        )
        for n in range(count)
    ]
    return [str(c.approval_item_id) for c in accord.settle_many(requests)]


@contextmanager
def _worker(accord: Accord) -> Iterator[None]:
    """The serve worker's loop, polling every ``POLL_SECONDS``."""
    stop = threading.Event()
    deliverer = accord.webhook_deliverer()

    def loop() -> None:
        while not stop.is_set():
            deliverer.run_once()
            stop.wait(POLL_SECONDS)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        deliverer.close()


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _latency(folder: Path, runs: int) -> list[Result]:
    receiver = _Receiver(fail_every_other=False)
    with _server(receiver) as url:
        body = b"x" * 400
        with httpx.Client() as client:
            bare = []
            for _ in range(runs):
                started = time.perf_counter()
                client.post(url, content=body)
                bare.append(time.perf_counter() - started)
        accord, signer = _open(folder, backoff=1.0)
        try:
            _, receiver.secret = accord.webhooks.subscribe(url, ["item.decided"])
            items = _escalated(accord, runs)
            committed: dict[str, float] = {}
            with _worker(accord):
                for item in items:
                    accord.decide(item, signer, choice="1450")
                    committed[item] = time.perf_counter()
                    time.sleep(POLL_SECONDS * 2)  # one decision at a time, as people decide
                deadline = time.perf_counter() + 30
                while len(receiver.received) < runs and time.perf_counter() < deadline:
                    time.sleep(0.01)
        finally:
            accord.close()
    waits = [receiver.received[i] - committed[i] for i in items if i in receiver.received]
    bare_p50 = statistics.median(bare) * 1000
    p50 = statistics.median(waits) * 1000
    return [
        Result(
            "loopback POST, bare httpx (baseline)",
            bare_p50,
            "ms p50",
            notes=f"p99 {_pct(bare, 0.99) * 1000:.2f} ms, {runs} posts",
        ),
        Result(
            "webhook: decision commit → receipt",
            p50,
            "ms p50",
            baseline=f"{bare_p50:.2f} ms",
            ratio=p50 / bare_p50,
            notes=f"p99 {_pct(waits, 0.99) * 1000:.2f} ms; worker polls every "
            f"{POLL_SECONDS * 1000:.0f} ms; {len(waits)}/{runs} received",
        ),
    ]


def _every_other(folder: Path, decisions: int) -> list[Result]:
    receiver = _Receiver(fail_every_other=True)
    with _server(receiver) as url:
        accord, signer = _open(folder, backoff=0.005)
        try:
            _, receiver.secret = accord.webhooks.subscribe(url, ["item.decided"])
            items = _escalated(accord, decisions)
            started = time.perf_counter()
            with _worker(accord):
                for item in items:
                    accord.decide(item, signer, choice="1450")
                deadline = time.perf_counter() + 120
                while len(receiver.received) < decisions and time.perf_counter() < deadline:
                    time.sleep(0.02)
            elapsed = time.perf_counter() - started
        finally:
            accord.close()
    lost = decisions - len(set(receiver.received) & set(items))
    duplicates = receiver.new - len(receiver.received)
    extra: dict[str, Any] = {"calls": receiver.calls, "lost": lost, "duplicates": duplicates}
    return [
        Result(
            f"{decisions} decisions, receiver failing every other call: lost",
            lost,
            "deliveries",
            target="0",
            passed=lost == 0,
            notes=f"{receiver.calls} calls in {elapsed:.1f} s",
            extra=extra,
        ),
        Result(
            f"{decisions} decisions, receiver failing every other call: duplicates as new",
            duplicates,
            "deliveries",
            target="0",
            passed=duplicates == 0,
            notes="retries recognised by Accord-Delivery-Id (verify_delivery's seen set)",
        ),
    ]


def run(quick: bool) -> list[Result]:
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        results = _latency(Path(a), 20 if quick else 200)
        results += _every_other(Path(b), 100 if quick else 1000)
    return results
