"""Several sweepers racing on their own connection pools fire every deadline exactly once."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta

from accord.clock import FrozenClock
from accord.deadlines import DeadlineState, DeadlineSweep, SweepReport, arm_many, new_deadline
from accord.store import open_database
from accord.store.tables import deadlines
from tests.deadlines.conftest import KIND, Recorder

ROWS = 300
SWEEPERS = 3


def test_racing_sweepers_fire_each_due_deadline_exactly_once(
    database_url: str, frozen_clock: FrozenClock
) -> None:
    """On PostgreSQL each claim is ``FOR UPDATE SKIP LOCKED``; on SQLite ``BEGIN IMMEDIATE``."""
    databases = [open_database(database_url) for _ in range(SWEEPERS)]
    recorder = Recorder()
    now = frozen_clock.now()
    try:
        with databases[0].write() as conn:
            arm_many(conn, [
                new_deadline(kind=KIND, subject_id=f"s:{n}", due_at=now, now=now)
                for n in range(ROWS)
            ])  # fmt: skip
        frozen_clock.advance(timedelta(minutes=1))
        sweeps = [
            DeadlineSweep(d, frozen_clock, {KIND: recorder}, sweeper_id=f"sweeper:{i}")
            for i, d in enumerate(databases)
        ]
        start = threading.Barrier(SWEEPERS)
        reports: list[SweepReport] = [SweepReport() for _ in sweeps]

        def race(index: int) -> None:
            start.wait()
            reports[index] = sweeps[index].run(batch=7)

        threads = [threading.Thread(target=race, args=(i,)) for i in range(SWEEPERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not any(thread.is_alive() for thread in threads)

        fired = [f.deadline.deadline_id for r in reports for f in r.fired]
        assert len(fired) == len(set(fired)) == ROWS
        assert set(recorder.counts().values()) == {1}  # no handler ran twice
        with databases[1].read() as conn:
            rows = conn.execute(deadlines.select()).mappings().all()
        assert {r["state"] for r in rows} == {DeadlineState.FIRED.value}
        by_sweeper = Counter(r["fired_by"] for r in rows)
        assert sum(by_sweeper.values()) == ROWS
        assert set(by_sweeper) <= {s.sweeper_id for s in sweeps}
        assert all(r["version"] == 2 and r["attempts"] == 1 for r in rows)
    finally:
        for database in databases:
            database.dispose()
