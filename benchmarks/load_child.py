"""A lean load driver for the service benchmark, run as its own process: N keep-alive HTTP/1.1
connections on raw asyncio streams (no client library), each looping list / settle / decide
like the in-process httpx clients, so the client costs the machine as little as it can.

Usage: python load_child.py BASE_URL SECONDS CLIENTS ADMIN_TOKEN REVIEWER_TOKEN ITEMS_FILE [KIND]
KIND is ``mix`` (the default: 40 % list, 40 % settle, 20 % decide) or one of ``list``,
``settle``, ``decide`` alone (to measure what one kind of request costs the server), or
``health`` (``GET /health``: what the HTTP stack alone costs per request).
Prints one JSON object: latencies by kind (seconds) and the error statuses.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from urllib.parse import urlsplit


def _labels(i: int) -> bytes:
    return json.dumps(
        {
            "subject": f"ticket {i}",
            "task_type": "triage",
            "positions": [
                {"agent": "agent:backend", "output": "bug"},
                {"agent": "agent:frontend", "output": "bug"},
                {"agent": "agent:qa", "output": "feature"},
            ],
        }
    ).encode()


def _request(method: str, path: str, host: str, token: str, body: bytes = b"") -> bytes:
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _answer(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    await reader.readexactly(length)
    return status


async def main() -> None:
    base, seconds, clients, admin, reviewer, items_file = sys.argv[1:7]
    only = sys.argv[7] if len(sys.argv) > 7 else "mix"
    with open(items_file, encoding="utf-8") as fh:
        items: list[str] = json.load(fh)
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    latencies: dict[str, list[float]] = {"list": [], "settle": [], "decide": []}
    errors: list[int] = []
    stop_at = time.perf_counter() + float(seconds)
    decision = json.dumps({"choice": "reject", "reasoning": "bench"}).encode()

    async def one_client(index: int) -> None:
        reader, writer = await asyncio.open_connection(host, port)
        n = 0
        while time.perf_counter() < stop_at:
            n += 1
            if only == "decide" and not items:
                break
            if (only == "decide" or (only == "mix" and n % 5 == 0)) and items:
                kind = "decide"
                path = f"/api/v1/approvals/{items.pop()}/decision"
                raw = _request("POST", path, parts.netloc, reviewer, decision)
            elif only == "health":
                kind = "list"
                raw = _request("GET", "/health", parts.netloc, admin)
            elif only == "settle" or (only == "mix" and n % 2 == 0):
                kind = "settle"
                raw = _request(
                    "POST", "/api/v1/settle", parts.netloc, admin, _labels(index * 100_000 + n)
                )
            else:
                kind = "list"
                raw = _request("GET", "/api/v1/approvals?limit=20", parts.netloc, admin)
            began = time.perf_counter()
            try:
                writer.write(raw)
                status = await _answer(reader)
            except (ConnectionError, asyncio.IncompleteReadError):  # counted, then reconnect
                errors.append(0)
                writer.close()
                reader, writer = await asyncio.open_connection(host, port)
                continue
            latencies[kind].append(time.perf_counter() - began)
            if status >= 400:
                errors.append(status)
        writer.close()

    began = time.perf_counter()
    await asyncio.gather(*(one_client(i) for i in range(int(clients))))
    elapsed = time.perf_counter() - began
    cpu = time.process_time()
    print(json.dumps({"latencies": latencies, "errors": errors, "elapsed": elapsed, "cpu": cpu}))


if __name__ == "__main__":
    asyncio.run(main())
