"""Concurrent writers share transactions; a lone writer is never delayed; failures stay local."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import pytest

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


def test_a_failing_batch_is_retried_item_by_item_so_only_the_bad_caller_fails() -> None:
    recorder = Recorder(hold_first=True)
    commits = GroupCommit(recorder)
    with ThreadPoolExecutor(max_workers=4) as pool:
        first = pool.submit(commits.submit, 1)
        assert recorder.first_started.wait(10)
        good = pool.submit(commits.submit, 2)
        bad = pool.submit(commits.submit, -3)
        other = pool.submit(commits.submit, 4)
        while commits.queued < 3:
            threading.Event().wait(0.001)
        recorder.release.set()
        assert first.result(10) == 10
        assert good.result(10) == 20
        assert other.result(10) == 40
        with pytest.raises(ValueError, match="negative"):
            bad.result(10)
    assert sorted(recorder.batches[1]) == [-3, 2, 4]  # tried together first
    assert sorted(map(tuple, recorder.batches[2:])) == [(-3,), (2,), (4,)]


def test_a_writer_that_returns_the_wrong_number_of_results_fails_its_callers() -> None:
    commits: GroupCommit[int, int] = GroupCommit(lambda items: [])
    with pytest.raises(RuntimeError, match="0 results for 1"):
        commits.submit(1)


def test_max_batch_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_batch"):
        GroupCommit(Recorder(), max_batch=0)
