from __future__ import annotations

import socket

import httpx
import pytest

from accord.llm import (
    ModelError,
    ModelHTTPError,
    ModelRateLimited,
    ModelTimeout,
    ModelUnreachable,
    OpenAICompatibleModel,
    RetryPolicy,
)

from ._requests import ask
from ._server import FakeProviderServer, Reply, openai_reply
from .conftest import SleepRecorder

pytestmark = pytest.mark.anyio


def model_for(
    base_url: str,
    transport: httpx.AsyncBaseTransport,
    sleeps: SleepRecorder,
    retry: RetryPolicy | None = None,
    timeout: float = 5.0,
) -> OpenAICompatibleModel:
    return OpenAICompatibleModel(
        base_url, "m", transport=transport, sleep=sleeps, retry=retry, timeout=timeout
    )


async def test_a_server_error_then_success_is_retried_once_after_the_base_delay(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(status=500, body="oops"), Reply(body=openai_reply("ok")))
    response = await model_for(server.base_url, transport, sleeps).complete(ask())
    assert response.text == "ok"
    assert len(server.received) == 2
    assert sleeps.delays == [0.5]


async def test_a_rate_limit_waits_as_long_as_retry_after_says(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(
        Reply(status=429, body="slow down", headers={"retry-after": "3"}),
        Reply(body=openai_reply("ok")),
    )
    await model_for(server.base_url, transport, sleeps).complete(ask())
    assert sleeps.delays == [3.0]


async def test_retry_after_is_capped_at_the_maximum_delay(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(status=503, headers={"retry-after": "120"}), Reply(body=openai_reply("ok")))
    await model_for(server.base_url, transport, sleeps).complete(ask())
    assert sleeps.delays == [8.0]


async def test_exhausted_retries_raise_the_last_error_after_doubling_delays(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(
        Reply(status=429, body="busy"),
        Reply(status=429, body="busy"),
        Reply(
            status=429, body="still busy", headers={"retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"}
        ),
    )
    with pytest.raises(ModelRateLimited) as caught:
        await model_for(server.base_url, transport, sleeps).complete(ask())
    assert caught.value.code == "llm.rate_limited"
    assert caught.value.context["status"] == 429
    assert caught.value.context["body"] == "still busy"
    assert caught.value.context["retry_after"] is None
    assert len(server.received) == 3
    assert sleeps.delays == [0.5, 1.0]


@pytest.mark.parametrize("status", [400, 401, 404, 501])
async def test_a_client_error_or_unlisted_status_is_not_retried(
    server: FakeProviderServer,
    transport: httpx.AsyncHTTPTransport,
    sleeps: SleepRecorder,
    status: int,
) -> None:
    server.reply(Reply(status=status, body="no"))
    with pytest.raises(ModelHTTPError) as caught:
        await model_for(server.base_url, transport, sleeps).complete(ask())
    assert caught.value.code == "llm.http_error"
    assert caught.value.context["status"] == status
    assert len(server.received) == 1
    assert sleeps.delays == []


async def test_a_slow_server_times_out_and_timeouts_are_retried(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(delay=5), Reply(delay=5))
    model = model_for(server.base_url, transport, sleeps, RetryPolicy(attempts=2), timeout=0.05)
    with pytest.raises(ModelTimeout) as caught:
        await model.complete(ask())
    assert caught.value.code == "llm.timeout"
    assert caught.value.context["kind"] == "ReadTimeout"
    assert isinstance(caught.value.__cause__, httpx.ReadTimeout)
    assert sleeps.delays == [0.5]


async def test_a_timeout_then_success_succeeds(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(delay=5), Reply(body=openai_reply("late but fine")))
    model = model_for(server.base_url, transport, sleeps, timeout=0.05)
    assert (await model.complete(ask())).text == "late but fine"


async def test_a_closed_port_is_unreachable_after_every_attempt(
    transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    model = model_for(f"http://127.0.0.1:{port}", transport, sleeps)
    with pytest.raises(ModelUnreachable) as caught:
        await model.complete(ask())
    assert caught.value.code == "llm.unreachable"
    assert sleeps.delays == [0.5, 1.0]


async def test_a_policy_can_decline_to_retry_timeouts(
    server: FakeProviderServer, transport: httpx.AsyncHTTPTransport, sleeps: SleepRecorder
) -> None:
    server.reply(Reply(delay=5))
    policy = RetryPolicy(retry_timeouts=False)
    model = model_for(server.base_url, transport, sleeps, policy, timeout=0.05)
    with pytest.raises(ModelTimeout):
        await model.complete(ask())
    assert sleeps.delays == []


def test_delays_double_from_the_base_up_to_the_maximum() -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=3.0)
    assert [policy.delay(n) for n in range(1, 6)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    assert policy.delay(1, retry_after=2.5) == 2.5
    assert policy.delay(1, retry_after=0.0) == 0.0


def test_the_default_policy_retries_transient_failures_only() -> None:
    policy = RetryPolicy()
    assert policy.attempts == 3
    assert policy.retry_statuses == frozenset({429, 500, 502, 503, 504})
    assert policy.should_retry(ModelTimeout("t"))
    assert policy.should_retry(ModelUnreachable("u"))
    assert policy.should_retry(ModelRateLimited("r", status=429))
    assert policy.should_retry(ModelHTTPError("h", status=502))
    assert not policy.should_retry(ModelHTTPError("h", status=400))
    assert not policy.should_retry(ModelHTTPError("redirects"))
    assert not policy.should_retry(ModelError("other"))
    assert not RetryPolicy(retry_unreachable=False).should_retry(ModelUnreachable("u"))


def test_a_policy_needs_at_least_one_attempt() -> None:
    with pytest.raises(ValueError, match="attempts"):
        RetryPolicy(attempts=0)
