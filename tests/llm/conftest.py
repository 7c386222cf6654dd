"""Fixtures of the llm room's tests: a loopback provider server, a transport, a fake sleep."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from ._server import FakeProviderServer


class SleepRecorder:
    """An injected ``sleep`` that only remembers how long it was asked to wait."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    """A fresh scripted provider on 127.0.0.1 (an ephemeral port)."""
    fake = FakeProviderServer()
    fake.start()
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture
async def transport() -> AsyncIterator[httpx.AsyncHTTPTransport]:
    """A real HTTP transport, injected so environment proxies never apply."""
    real = httpx.AsyncHTTPTransport()
    try:
        yield real
    finally:
        await real.aclose()


@pytest.fixture
def sleeps() -> SleepRecorder:
    return SleepRecorder()
