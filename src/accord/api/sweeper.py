"""The deadline sweeper, run in the server's process as a background task.

Deadlines are rows, so sweeping is idempotent and safe with several server processes (each
claims due rows with ``SKIP LOCKED`` on PostgreSQL); this task runs the same sweep as
``accord sweep`` — every deadline kind Accord arms — every ``interval`` seconds until
stopped. A failing sweep is logged and retried next time.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

import anyio.to_thread

from accord.app import Accord
from accord.deadlines import DeadlineSweep, SweepReport
from accord.log import get_logger

log = get_logger("accord.api")


class Sweeper:
    def __init__(
        self,
        accord: Accord,
        interval: float,
        *,
        sweep: DeadlineSweep | None = None,
    ) -> None:
        """``sweep`` defaults to :meth:`Accord.deadline_sweeper` (every deadline kind)."""
        if interval <= 0:
            raise ValueError("the sweep interval is a positive number of seconds")
        self._accord = accord
        self._sweep = sweep
        self._gate = threading.Lock()  # one sweep at a time in this process
        self._interval = interval
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.sweeps = 0

    async def sweep_once(self) -> int:
        """One sweep in a worker thread; returns how many deadlines fired (0 after an error)."""
        try:
            report = await anyio.to_thread.run_sync(self._sweep_gated)
        except Exception as exc:  # the loop must survive a database hiccup
            log.error("sweeper.failed", error=repr(exc))
            return 0
        finally:
            self.sweeps += 1
        if report.fired or report.failed:
            log.info("sweeper.swept", fired=len(report.fired), failed=len(report.failed))
        return len(report.fired)

    def _sweep_gated(self) -> SweepReport:
        with self._gate:
            if self._sweep is None:
                self._sweep = self._accord.deadline_sweeper()
            return self._sweep.run()

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self._interval)
            if self._stop.is_set():
                return
            await self.sweep_once()

    async def start(self) -> None:
        """Sweep once now (deadlines that passed while no server ran), then periodically."""
        self._stop.clear()
        await self.sweep_once()
        self._task = asyncio.create_task(self._run(), name="accord-sweeper")

    async def stop(self) -> None:
        """Ask the loop to end and wait for the sweep in progress (graceful shutdown)."""
        self._stop.set()
        if self._task is not None:
            await self._task
            self._task = None
