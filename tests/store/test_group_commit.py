"""Concurrent writers share transactions; a lone writer is never delayed; failures stay local."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from accord.errors import AccordError
from accord.store.group_commit import GroupCommit


class Recorder:
    """A write_batch that records its batches and can hold the first one open."""

    def __init__(self, hold_first: bool = False) -> None:
        self.batches: list[list[int]] = []
        self.first_started = threading.Event()
        self.release = threading.Event()
        if not hold_first:
            self.release.set()
        self.lock = threading.Lock()

    def __call__(self, items: Sequence[int]) -> list[int]:
        with self.lock:
            self.batches.append(list(items))
            first = len(self.batches) == 1
        if first:
            self.first_started.set()
            assert self.release.wait(10)
        if any(i < 0 for i in items):
            raise ValueError(f"negative item in {list(items)}")
        return [i * 10 for i in items]


def test_a_lone_caller_is_written_at_once_in_a_batch_of_one() -> None:
    recorder = Recorder()
    commits = GroupCommit(recorder)
    assert commits.submit(4) == 40
    assert commits.submit(5) == 50
    assert recorder.batches == [[4], [5]]


def test_callers_arriving_during_a_write_share_the_next_transaction() -> None:
    recorder = Recorder(hold_first=True)
    commits = GroupCommit(recorder)
    with ThreadPoolExecutor(max_workers=9) as pool:
        first = pool.submit(commits.submit, 0)
        assert recorder.first_started.wait(10)
        rest = [pool.submit(commits.submit, i) for i in range(1, 9)]
        while commits.queued < 8:  # every follower has queued behind the open write
            threading.Event().wait(0.001)
        recorder.release.set()
        assert first.result(10) == 0
        assert [f.result(10) for f in rest] == [i * 10 for i in range(1, 9)]
    assert recorder.batches[0] == [0]
    assert sorted(recorder.batches[1]) == list(range(1, 9))
    assert len(recorder.batches) == 2


def test_a_batch_never_exceeds_max_batch() -> None:
    recorder = Recorder(hold_first=True)
    commits = GroupCommit(recorder, max_batch=3)
    with ThreadPoolExecutor(max_workers=8) as pool:
        first = pool.submit(commits.submit, 0)
        assert recorder.first_started.wait(10)
        rest = [pool.submit(commits.submit, i) for i in range(1, 8)]
        while commits.queued < 7:
            threading.Event().wait(0.001)
        recorder.release.set()
        assert sorted([first.result(10), *(f.result(10) for f in rest)]) == [
            i * 10 for i in range(8)
        ]
    assert max(len(b) for b in recorder.batches) <= 3
    assert sorted(i for b in recorder.batches for i in b) == list(range(8))


def _held_batch(
    commits: GroupCommit[int, int], recorder: Recorder, items: list[int]
) -> list[Future[int]]:
    """Submit 1 (held open), then ``items`` so they queue behind it; release; the futures."""
    pool = ThreadPoolExecutor(max_workers=len(items) + 1)
    first = pool.submit(commits.submit, 1)
    assert recorder.first_started.wait(10)
    futures = [pool.submit(commits.submit, i) for i in items]
    while commits.queued < len(items):
        threading.Event().wait(0.001)
    recorder.release.set()
    pool.shutdown(wait=True)
    return [first, *futures]


def test_a_failing_batch_is_split_so_only_the_bad_caller_fails() -> None:
    recorder = Recorder(hold_first=True)
    commits = GroupCommit(recorder)
    first, *rest = _held_batch(commits, recorder, [2, -3, 4, 5])
    assert first.result() == 10
    results = {}
    for item, future in zip([2, -3, 4, 5], rest, strict=True):
        try:
            results[item] = future.result()
        except ValueError as exc:
            results[item] = exc
    assert (results[2], results[4], results[5]) == (20, 40, 50)
    assert isinstance(results[-3], ValueError)
    assert sorted(recorder.batches[1]) == [-3, 2, 4, 5]  # tried together first
    assert all(len(b) <= 2 for b in recorder.batches[2:])  # then by halves
    assert len(recorder.batches) == 2 + 4  # two halves, and the bad half split again


class LockedOut(AccordError):
    code = "store.write_failed"


def test_a_database_failure_fails_the_whole_batch_at_once_and_each_caller_gets_its_own_error() -> (
    None
):
    calls: list[list[int]] = []
    gate = threading.Event()
    started = threading.Event()

    def write(items: Sequence[int]) -> list[int]:
        calls.append(list(items))
        if len(calls) == 1:
            started.set()
            assert gate.wait(10)
            return list(items)
        raise LockedOut("database is locked", where="commit")

    commits = GroupCommit(write, batch_wide=(LockedOut,))
    with ThreadPoolExecutor(max_workers=5) as pool:
        first = pool.submit(commits.submit, 0)
        assert started.wait(10)
        rest = [pool.submit(commits.submit, i) for i in range(1, 5)]
        while commits.queued < 4:
            threading.Event().wait(0.001)
        gate.set()
        assert first.result(10) == 0
        errors = [f.exception(10) for f in rest]
    assert len(calls) == 2  # no retries for a database failure
    assert all(isinstance(e, LockedOut) for e in errors)
    assert len({id(e) for e in errors}) == 4  # never one object raised in several threads
    assert all(e.context == {"where": "commit"} and e.__cause__ is not None for e in errors)


def test_an_interrupted_retry_completes_every_caller_and_never_spins() -> None:
    calls: list[list[int]] = []
    gate = threading.Event()
    started = threading.Event()

    def write(items: Sequence[int]) -> list[int]:
        calls.append(list(items))
        if len(calls) == 1:
            started.set()
            assert gate.wait(10)
            return list(items)
        if len(items) > 1:
            raise ValueError("some item is bad")
        if items[0] == 2:
            raise KeyboardInterrupt
        return list(items)

    commits = GroupCommit(write)
    outcomes: dict[int, object] = {}

    def call(i: int) -> None:
        try:
            outcomes[i] = commits.submit(i)
        except BaseException as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=call, args=(0,))]
    threads[0].start()
    assert started.wait(10)
    threads += [threading.Thread(target=call, args=(i,)) for i in (1, 2, 3, 4)]
    for t in threads[1:]:
        t.start()
    while commits.queued < 4:
        threading.Event().wait(0.001)
    gate.set()
    for t in threads:
        t.join(10)
        assert not t.is_alive(), "a caller was left waiting"
    assert len(calls) < 12  # no spinning on an empty queue
    assert outcomes[0] == 0
    raised = {i: v for i, v in outcomes.items() if isinstance(v, BaseException)}
    leaders = [i for i, v in raised.items() if isinstance(v, KeyboardInterrupt)]
    assert len(leaders) == 1  # only the leader's own thread sees the interrupt
    for i, value in raised.items():
        if i not in leaders:
            assert isinstance(value, AccordError)
            assert value.code == "store.batch_interrupted"
    assert 2 in raised  # the item whose write was interrupted never reports success


def test_a_writer_that_returns_the_wrong_number_of_results_fails_its_callers() -> None:
    commits: GroupCommit[int, int] = GroupCommit(lambda items: [])
    with pytest.raises(RuntimeError, match="0 results for 1"):
        commits.submit(1)


def test_max_batch_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_batch"):
        GroupCommit(Recorder(), max_batch=0)


async def _in_place(write: Callable[[], None]) -> None:
    write()


def test_callers_of_one_event_loop_turn_share_one_transaction() -> None:
    recorder = Recorder()
    commits = GroupCommit(recorder)

    async def main() -> list[int]:
        return await asyncio.gather(*(commits.submit_async(i, _in_place) for i in range(6)))

    assert asyncio.run(main()) == [i * 10 for i in range(6)]
    assert recorder.batches == [list(range(6))]


def test_a_lone_async_caller_is_written_in_a_batch_of_one() -> None:
    recorder = Recorder()
    commits = GroupCommit(recorder)
    assert asyncio.run(commits.submit_async(3, _in_place)) == 30
    assert asyncio.run(commits.submit_async(4, _in_place)) == 40
    assert recorder.batches == [[3], [4]]


def test_a_bad_item_in_an_async_batch_fails_only_its_own_caller() -> None:
    recorder = Recorder()
    commits = GroupCommit(recorder)

    async def main() -> list[object]:
        calls = (commits.submit_async(i, _in_place) for i in (1, -2, 3))
        return await asyncio.gather(*calls, return_exceptions=True)

    one, bad, three = asyncio.run(main())
    assert (one, three) == (10, 30)
    assert isinstance(bad, ValueError)


def test_an_async_caller_cancelled_before_its_batch_is_taken_is_never_written() -> None:
    recorder = Recorder()
    commits = GroupCommit(recorder)

    async def main() -> int:
        gone = asyncio.ensure_future(commits.submit_async(7, _in_place))
        await asyncio.sleep(0)  # it has queued its item and waits for the next turn
        gone.cancel()
        with pytest.raises(asyncio.CancelledError):
            await gone
        return await commits.submit_async(8, _in_place)

    assert asyncio.run(main()) == 80
    assert recorder.batches == [[8]]
    assert commits.queued == 0


def test_an_async_caller_and_a_thread_share_the_writer_without_losing_either() -> None:
    recorder = Recorder(hold_first=True)
    commits = GroupCommit(recorder)
    with ThreadPoolExecutor(max_workers=1) as pool:
        first = pool.submit(commits.submit, 1)
        assert recorder.first_started.wait(10)

        async def on_a_thread(write: Callable[[], None]) -> None:
            await asyncio.to_thread(write)

        async def main() -> int:
            later = asyncio.ensure_future(commits.submit_async(2, on_a_thread))
            while commits.queued < 1:
                await asyncio.sleep(0.001)
            recorder.release.set()
            return await later

        assert asyncio.run(main()) == 20
        assert first.result(10) == 10
    assert recorder.batches == [[1], [2]]


def test_an_async_caller_waits_off_the_loop_while_a_thread_leads_a_write() -> None:
    recorder = Recorder(hold_first=True)
    commits = GroupCommit(recorder)
    ran_in_place: list[int] = []

    async def in_place(write: Callable[[], None]) -> None:
        ran_in_place.append(1)  # would block the loop on the thread's leader lock
        write()

    with ThreadPoolExecutor(max_workers=1) as pool:
        first = pool.submit(commits.submit, 1)
        assert recorder.first_started.wait(10)

        async def main() -> int:
            later = asyncio.ensure_future(commits.submit_async(2, in_place))
            for _ in range(20):  # the loop keeps turning while the thread's write is open
                await asyncio.sleep(0.001)
            assert not later.done()
            recorder.release.set()
            return await later

        assert asyncio.run(main()) == 20
        assert first.result(10) == 10
    assert ran_in_place == []


class WaitingRun:
    """A ``run`` that waits (as ``short_write`` waits for the writer lock) before it writes in
    place, counting its calls; it waits ``turns`` loop turns, or until ``release`` is set."""

    def __init__(self, turns: int = 5) -> None:
        self.calls = 0
        self.turns = turns
        self.release: asyncio.Event | None = None

    async def __call__(self, write: Callable[[], None]) -> None:
        self.calls += 1
        if self.release is not None:
            await self.release.wait()
        for _ in range(self.turns):
            await asyncio.sleep(0)
        write()


def test_callers_that_queue_while_a_loop_leader_waits_to_write_join_its_batch() -> None:
    recorder = Recorder()
    commits = GroupCommit(recorder)
    run = WaitingRun(turns=10)

    async def main() -> list[int]:
        first = asyncio.ensure_future(commits.submit_async(0, run))
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # the first caller now leads and waits to write
        later = [commits.submit_async(i, run) for i in range(1, 6)]
        return await asyncio.gather(first, *later)

    assert asyncio.run(main()) == [i * 10 for i in range(6)]
    assert recorder.batches == [list(range(6))]
    assert run.calls == 1  # only the leader waited for the writer; the others waited for it


def test_a_loop_leader_cancelled_while_it_waits_hands_the_lead_to_a_waiting_caller() -> None:
    recorder = Recorder()
    commits = GroupCommit(recorder)
    run = WaitingRun(turns=0)

    async def main() -> int:
        run.release = asyncio.Event()
        leader = asyncio.ensure_future(commits.submit_async(1, run))
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # the leader waits for the writer
        follower = asyncio.ensure_future(commits.submit_async(2, run))
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # the follower waits for the leader
        leader.cancel()
        with pytest.raises(asyncio.CancelledError):
            await leader
        run.release.set()
        return await follower

    assert asyncio.run(main()) == 20
    assert recorder.batches == [[2]]  # the cancelled leader's item was never written
    assert commits.queued == 0


def test_a_loop_leader_holding_the_writer_lock_and_a_thread_caller_never_deadlock() -> None:
    # short_write takes the writer lock on the loop before it writes; a thread's write takes
    # the leader lock, then the writer lock. The loop must hold the leader lock before the
    # writer lock too, or each would wait for the other.
    writer = threading.RLock()
    recorder = Recorder()

    def write_batch(items: Sequence[int]) -> list[int]:
        if not writer.acquire(timeout=5):
            raise TimeoutError("the writer lock was never released")
        try:
            return recorder(items)
        finally:
            writer.release()

    commits = GroupCommit(write_batch)
    holding = threading.Event()
    thread_waits = threading.Event()

    async def writer_taken_then_write(write: Callable[[], None]) -> None:
        assert writer.acquire(blocking=False)
        try:
            holding.set()
            while not thread_waits.is_set():
                await asyncio.sleep(0.001)
            await asyncio.sleep(0.05)  # the thread is now inside submit, blocked on a lock
            write()
        finally:
            writer.release()

    with ThreadPoolExecutor(max_workers=1) as pool:

        def from_a_thread() -> int:
            assert holding.wait(10)
            thread_waits.set()
            return commits.submit(2)

        async def main() -> int:
            return await commits.submit_async(1, writer_taken_then_write)

        other = pool.submit(from_a_thread)
        assert asyncio.run(main()) == 10
        assert other.result(10) == 20
    assert sorted(i for batch in recorder.batches for i in batch) == [1, 2]
