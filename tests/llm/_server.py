"""A loopback HTTP server playing OpenAI-compatible and Anthropic endpoints from a script."""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """One scripted answer: a dict body is sent as JSON, a str body as it is."""

    status: int = 200
    body: Mapping[str, Any] | str = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True)
class Received:
    """One request the server got; header names are lower-case."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: Any


class FakeProviderServer:
    """Answers every POST with the next scripted ``Reply`` and records the request.

    A ``delay`` waits on an event that ``stop`` sets, so slow replies never hold up teardown.
    """

    def __init__(self) -> None:
        self.received: list[Received] = []
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._released = threading.Event()
        self._httpd = _QuietServer(("127.0.0.1", 0), self._handler_class())
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def reply(self, *replies: Reply) -> None:
        """Queue answers, served in order."""
        with self._lock:
            self._replies.extend(replies)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._released.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def _next(self, received: Received) -> Reply:
        with self._lock:
            self.received.append(received)
            if self._replies:
                return self._replies.popleft()
        return Reply(status=599, body="no scripted reply left")

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length)
                received = Received(
                    method="POST",
                    path=self.path,
                    headers={name.lower(): value for name, value in self.headers.items()},
                    body=json.loads(raw) if raw else None,
                )
                reply = server._next(received)
                if reply.delay:
                    server._released.wait(reply.delay)
                text = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
                data = text.encode()
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                """Silence the per-request log lines."""

        return Handler


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (timeout tests) breaks the pipe; that is expected."""


def openai_reply(
    content: str | None,
    *,
    prompt_tokens: int | None = 12,
    completion_tokens: int | None = 5,
    finish_reason: str | None = "stop",
    model: str = "served-model",
) -> dict[str, Any]:
    """A ``/chat/completions`` answer; ``None`` token counts leave ``usage`` out."""
    body: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
    }
    if prompt_tokens is not None and completion_tokens is not None:
        body["usage"] = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
    return body


def anthropic_reply(
    *texts: str,
    input_tokens: int | None = 20,
    output_tokens: int | None = 7,
    stop_reason: str | None = "end_turn",
    model: str = "claude-test",
) -> dict[str, Any]:
    """A ``/v1/messages`` answer with one text block per text; ``None`` counts drop ``usage``."""
    body: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text} for text in texts],
        "stop_reason": stop_reason,
    }
    if input_tokens is not None and output_tokens is not None:
        body["usage"] = {"input_tokens": input_tokens, "output_tokens": output_tokens}
    return body
