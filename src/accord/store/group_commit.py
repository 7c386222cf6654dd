"""Group commit: callers that write at the same time share one transaction.

Each durable commit costs an fsync, so writers that each commit alone are bounded by the
disk, not the CPU. :class:`GroupCommit` queues every submitted item; whichever caller holds
the leader lock writes *everything* queued so far in one batch, and the callers it carried
return with their own results. A caller alone is written at once (no timer, no added
latency); under contention batches form by themselves.
On an event loop, where callers take turns instead of overlapping, :meth:`GroupCommit.submit_async`
waits one turn of the loop before it writes, so the callers that loop turn runs share the batch.

A batch is one transaction, so a failed batch wrote nothing. When the failure may come from
one item, the batch is split in halves and each half retried, so a bad item fails only its
own caller (and costs O(log n) extra transactions). Failures of the database itself
(``batch_wide`` error types, e.g. a lock timeout) fail the whole batch at once.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeAlias, TypeVar

from accord.errors import AccordError

Item = TypeVar("Item")
Result = TypeVar("Result")
#: How :meth:`GroupCommit.submit_async` runs its blocking write (in place or on a thread).
Runner: TypeAlias = Callable[[Callable[[], None]], Awaitable[None]]


class _Ticket(Generic[Item, Result]):
    __slots__ = ("done", "error", "item", "result", "shared")

    def __init__(self, item: Item) -> None:
        self.item = item
        self.done = False
        self.result: Result | None = None
        self.error: BaseException | None = None
        self.shared = False  # the same error object reached several callers


class GroupCommit(Generic[Item, Result]):
    """Writes items through ``write_batch`` (one transaction per call), batching concurrent
    submitters; ``write_batch`` returns one result per item, in order.

    ``max_batch`` caps a batch (1 turns batching off); errors of a ``batch_wide`` type are
    not retried item by item.
    """

    def __init__(
        self,
        write_batch: Callable[[Sequence[Item]], Sequence[Result]],
        *,
        max_batch: int = 500,
        batch_wide: tuple[type[Exception], ...] = (),
    ) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be at least 1")
        self._write_batch = write_batch
        self.max_batch = max_batch
        self._batch_wide = batch_wide
        self._queue_lock = threading.Lock()
        self._leader = threading.Lock()
        self._queue: list[_Ticket[Item, Result]] = []
        # the caller on an event loop that is writing or waiting to write (one at a time, so
        # that only one of them waits for the writer lock)
        self._loop_leader: asyncio.Future[None] | None = None

    @property
    def queued(self) -> int:
        """Items waiting for a leader (for monitoring and tests)."""
        with self._queue_lock:
            return len(self._queue)

    def submit(self, item: Item) -> Result:
        """Write ``item`` (with whatever else is queued); durable when this returns."""
        ticket = self._queued(item)
        self._lead_until_done(ticket)
        return _outcome(ticket)

    async def submit_async(self, item: Item, run: Runner) -> Result:
        """As :meth:`submit`, from an event loop: the item first waits one turn of the loop,
        so that the callers the loop runs in that turn queue theirs and one transaction writes
        them all (on an event loop, callers take turns instead of overlapping as threads do).
        ``run`` runs the blocking write, e.g. ``store.short_work.short_write`` bound to the
        database; a caller whose item an earlier batch carried does not call it, one caller
        on the loop runs it at a time (the others wait for that one's batch, which carries
        their items when they queued before it began), and while a leader on another thread
        is writing the caller waits for it on a worker thread."""
        ticket = self._queued(item)
        try:
            await asyncio.sleep(0)
            while not ticket.done:
                leading = self._loop_leader
                if leading is not None and _pending_here(leading):
                    # another caller on the loop is about to write (it may be waiting for the
                    # writer lock): its batch takes this item too, or this caller leads next
                    await asyncio.wait((leading,))
                    continue
                await self._lead_from_loop(ticket, run)
        except asyncio.CancelledError:  # a caller gone before any leader took its item
            self._withdraw(ticket)
            raise
        return _outcome(ticket)

    async def _lead_from_loop(self, ticket: _Ticket[Item, Result], run: Runner) -> None:
        """Lead one write from the loop. The leader lock is taken first, without blocking,
        and held until the write is done: the loop then never blocks on it while it holds
        the writer lock (a thread holding the leader lock waits for the writer lock, so the
        other order would deadlock). While a leader on another thread holds it, the caller
        waits for it on a worker thread."""
        if not self._leader.acquire(blocking=False):
            await asyncio.to_thread(self._lead_until_done, ticket)
            return
        leading: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._loop_leader = leading
        try:
            await run(functools.partial(self._drain_led, ticket))
        finally:
            self._leader.release()
            if self._loop_leader is leading:
                self._loop_leader = None
            leading.set_result(None)

    def _queued(self, item: Item) -> _Ticket[Item, Result]:
        ticket: _Ticket[Item, Result] = _Ticket(item)
        with self._queue_lock:
            self._queue.append(ticket)
        return ticket

    def _withdraw(self, ticket: _Ticket[Item, Result]) -> None:
        with self._queue_lock:
            if ticket in self._queue:
                self._queue.remove(ticket)

    def _lead_until_done(self, ticket: _Ticket[Item, Result]) -> None:
        with self._leader:
            self._drain_led(ticket)

    def _drain_led(self, ticket: _Ticket[Item, Result]) -> None:
        """Write queued batches until ``ticket`` is done (the caller holds the leader lock)."""
        while not ticket.done:
            with self._queue_lock:
                batch = self._queue[: self.max_batch]
                del self._queue[: self.max_batch]
            if not batch:  # pragma: no cover  (every queued ticket is completed)
                raise AccordError("group commit lost a queued write", code="store.lost_write")
            self._flush(batch)

    def _flush(self, batch: list[_Ticket[Item, Result]]) -> None:
        try:
            self._write(batch)
        except BaseException as exc:  # interrupted: nobody may wait for a lost batch
            interrupted = AccordError(
                "the write this call joined was interrupted", code="store.batch_interrupted"
            )
            interrupted.__cause__ = exc
            _fail([t for t in batch if not t.done], interrupted)
            raise

    def _write(self, batch: list[_Ticket[Item, Result]]) -> None:
        try:
            results = self._write_batch([t.item for t in batch])
        except Exception as exc:
            if len(batch) == 1 or isinstance(exc, self._batch_wide):
                _fail(batch, exc)
            else:  # nothing was written: retry each half on its own
                middle = len(batch) // 2
                self._write(batch[:middle])
                self._write(batch[middle:])
            return
        if len(results) != len(batch):
            _fail(batch, RuntimeError(f"write_batch gave {len(results)} results for {len(batch)}"))
            return
        for ticket, result in zip(batch, results, strict=True):
            ticket.result = result
            ticket.done = True


def _pending_here(leading: asyncio.Future[None]) -> bool:
    """Whether ``leading`` is a leader of this event loop still writing or about to."""
    return not leading.done() and leading.get_loop() is asyncio.get_running_loop()


def _fail(batch: list[_Ticket[Item, Result]], error: BaseException) -> None:
    for ticket in batch:
        ticket.error = error
        ticket.shared = len(batch) > 1
        ticket.done = True


def _outcome(ticket: _Ticket[Item, Result]) -> Result:
    error = ticket.error
    if error is None:
        return ticket.result  # type: ignore[return-value]  # set together with done
    if not ticket.shared:
        raise error
    # Several threads must not raise one exception object (tracebacks would pile up on it):
    # each caller gets its own error, caused by the shared one.
    own: BaseException
    if isinstance(error, AccordError):  # same class, code and context as the shared error
        own = type(error)(error.message, code=error.code, **error.context)
    else:
        own = AccordError(f"the shared write failed: {error}", code="store.batch_failed")
    raise own from error
