"""An ``Accord`` whose tied cases wait for people (SQLite and PostgreSQL), short backoffs,
and receivers: a real loopback HTTP server and scripted ``httpx.MockTransport`` ones."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from accord.app import Accord
from accord.cases import Case
from accord.clock import FrozenClock
from accord.errors import AccordError
from accord.webhooks import verify_delivery
from tests.e2e._support import numbers_tied, reviewer_key, write_config

WEBHOOKS = {"backoff_seconds": 1, "max_attempts": 8, "deadline_warning_seconds": 0}


def open_accord(tmp_path: Path, database_url: str, clock: FrozenClock, **webhooks: Any) -> Accord:
    config = write_config(
        tmp_path,
        {
            "conflict_resolution": {"strategy": "human"},
            "approvals": {"principals": {"human:alice": []}},
            "webhooks": {**WEBHOOKS, **webhooks},
        },
    )
    return Accord.open(config, db_url=database_url, keys_dir=tmp_path / "keys", clock=clock)


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    opened = open_accord(tmp_path, database_url, frozen_clock)
    yield opened
    opened.close()


def escalate(accord: Accord, n: int = 0) -> Case:
    case = accord.settle(f"Total of invoice {n}", numbers_tied(f"agent:a{n}", f"agent:b{n}"))
    assert case.approval_item_id is not None
    return case


def decide(accord: Accord, case: Case, choice: str = "1450") -> None:
    accord.decide(str(case.approval_item_id), reviewer_key(accord, "human:alice"), choice=choice)


class Receiver:
    """Verifies each delivery with ``verify_delivery`` and keeps what it accepted as new;
    ``answer(call, accepted)`` picks the status it replies with."""

    def __init__(
        self, secret: str, now: Callable[[], datetime], answer: Callable[[int, bool], int]
    ) -> None:
        self.secret, self.now, self.answer = secret, now, answer
        self.seen: set[str] = set()
        self.accepted: list[dict[str, Any]] = []
        self.replays = 0
        self.calls = 0
        self.urls: list[str] = []
        self._lock = threading.Lock()

    def receive(self, url: str, headers: dict[str, str], body: bytes) -> int:
        with self._lock:
            self.calls += 1
            self.urls.append(url)
            try:
                delivery = verify_delivery(self.secret, headers, body, self.now(), seen=self.seen)
            except AccordError as refused:
                if refused.code != "webhooks.replayed":
                    return 400
                self.replays += 1
                return self.answer(self.calls, False)
            self.accepted.append(delivery.payload)
            return self.answer(self.calls, True)

    def transport(self) -> httpx.MockTransport:
        def handle(request: httpx.Request) -> httpx.Response:
            status = self.receive(str(request.url), dict(request.headers), request.content)
            return httpx.Response(status)

        return httpx.MockTransport(handle)


def always_ok(call: int, accepted: bool) -> int:
    return 200


@pytest.fixture
def loopback() -> Iterator[tuple[str, list[Receiver]]]:
    """A real HTTP server on 127.0.0.1 in a thread; put a :class:`Receiver` in the list."""
    receivers: list[Receiver] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            status = receivers[0].receive(self.path, dict(self.headers.items()), body)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hooks", receivers
    server.shutdown()
    server.server_close()
    thread.join()
