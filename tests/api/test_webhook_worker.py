"""The webhook worker `accord serve` runs: a pass in a worker thread, a failing pass logged
and survived, stopped with the server."""

from __future__ import annotations

import asyncio

from accord.api.webhook_worker import WebhookWorker
from accord.app import Accord
from accord.cases import Case
from tests.webhooks.conftest import Receiver, always_ok, loopback  # noqa: F401 (a fixture)


def test_the_worker_delivers_what_waits_to_a_loopback_receiver(
    accord: Accord, escalated: Case, loopback: tuple[str, list[Receiver]]  # noqa: F811
) -> None:
    url, receivers = loopback
    _, secret = accord.webhooks.subscribe(url, ["item.waiting"])
    accord.settle(
        "Refund 900 to customer 12",
        [
            {"agent": "agent:billing", "output": "approve", "confidence": 0.7},
            {"agent": "agent:audit", "output": "reject", "confidence": 0.65},
        ],
        task_type="refunds",
    )
    receivers.append(Receiver(secret, accord.clock.now, always_ok))
    worker = WebhookWorker(accord, interval=3600)

    async def one_pass() -> object:
        await worker.start()
        try:
            return await worker.deliver_once()
        finally:
            await worker.stop()

    report = asyncio.run(one_pass())
    assert getattr(report, "delivered", None) == 1  # the refund settled after subscribing
    (waiting,) = receivers[0].accepted
    assert waiting["event"] == "item.waiting"
