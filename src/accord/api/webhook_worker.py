"""The webhook delivery worker, run in the server's process beside the deadline sweeper.

Every ``interval`` seconds it runs one delivery pass (``accord webhooks deliver`` runs the
same pass once) in a worker thread, so a slow receiver never holds the event loop, and never
a deciding transaction: deliveries were committed to the outbox with their events. A failing
pass is logged and retried next time.
"""

from __future__ import annotations

import asyncio
import contextlib

import anyio.to_thread

from accord.app import Accord
from accord.log import get_logger
from accord.webhooks import Deliverer, DeliveryReport

log = get_logger("accord.api")


class WebhookWorker:
    def __init__(self, accord: Accord, interval: float) -> None:
        if interval <= 0:
            raise ValueError("the webhook interval is a positive number of seconds")
        self._accord = accord
        self._interval = interval
        self._deliverer: Deliverer | None = None
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def deliver_once(self) -> DeliveryReport | None:
        """One pass in a worker thread; ``None`` after an error (logged)."""
        try:
            return await anyio.to_thread.run_sync(self._pass)
        except Exception as exc:  # the loop must survive a database hiccup
            log.error("webhooks.pass_failed", error=repr(exc))
            return None

    def _pass(self) -> DeliveryReport:
        if self._deliverer is None:
            self._deliverer = self._accord.webhook_deliverer()
        return self._deliverer.run_once()

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self._interval)
            if self._stop.is_set():
                return
            await self.deliver_once()

    async def start(self) -> None:
        self._stop.clear()
        self._task = asyncio.create_task(self._run(), name="accord-webhooks")

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            await self._task
            self._task = None
        if self._deliverer is not None:
            self._deliverer.close()
            self._deliverer = None
