"""Group commit: callers that write at the same time share one transaction.

Each durable commit costs an fsync, so writers that each commit alone are bounded by the
disk, not the CPU. :class:`GroupCommit` queues every submitted item; whichever caller holds
the leader lock writes *everything* queued so far in one batch, and the callers it carried
return with their own results. A caller alone is written at once (no timer, no added
latency); under contention batches form by themselves.

If a batch fails, nothing of it was written (one transaction), and each item is retried on
its own, so one bad item fails only its own caller.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


class _Ticket(Generic[Item, Result]):
    __slots__ = ("done", "error", "item", "result")

    def __init__(self, item: Item) -> None:
        self.item = item
        self.done = False
        self.result: Result | None = None
        self.error: BaseException | None = None


class GroupCommit(Generic[Item, Result]):
    """Writes items through ``write_batch`` (one transaction per call), batching concurrent
    submitters; ``write_batch`` returns one result per item, in order."""

    def __init__(
        self, write_batch: Callable[[Sequence[Item]], Sequence[Result]], *, max_batch: int = 500
    ) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be at least 1")
        self._write_batch = write_batch
        self._max_batch = max_batch
        self._queue_lock = threading.Lock()
        self._leader = threading.Lock()
        self._queue: list[_Ticket[Item, Result]] = []

    @property
    def queued(self) -> int:
        """Items waiting for a leader (for monitoring and tests)."""
        with self._queue_lock:
            return len(self._queue)

    def submit(self, item: Item) -> Result:
        """Write ``item`` (with whatever else is queued); durable when this returns."""
        ticket: _Ticket[Item, Result] = _Ticket(item)
        with self._queue_lock:
            self._queue.append(ticket)
        while not ticket.done:
            with self._leader:
                if ticket.done:  # an earlier leader carried it
                    break
                with self._queue_lock:
                    batch = self._queue[: self._max_batch]
                    del self._queue[: self._max_batch]
                self._flush(batch)
        if ticket.error is not None:
            raise ticket.error
        return ticket.result  # type: ignore[return-value]  # set with done, error unset

    def _flush(self, batch: list[_Ticket[Item, Result]]) -> None:
        try:
            results = self._write_batch([t.item for t in batch])
        except Exception as exc:
            if len(batch) == 1:
                _fail(batch, exc)
            else:
                for ticket in batch:  # the batch rolled back: each item on its own
                    self._flush([ticket])
            return
        except BaseException as exc:  # interrupted: no caller may wait for a lost batch
            _fail(batch, exc)
            raise
        if len(results) != len(batch):
            _fail(batch, RuntimeError(f"write_batch gave {len(results)} results for {len(batch)}"))
            return
        for ticket, result in zip(batch, results, strict=True):
            ticket.result = result
            ticket.done = True


def _fail(batch: list[_Ticket[Item, Result]], error: BaseException) -> None:
    for ticket in batch:
        ticket.error = error
        ticket.done = True
