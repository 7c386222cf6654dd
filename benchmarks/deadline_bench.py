"""Deadline sweeper benchmark (issue 12): 100,000 armed deadlines, 10,000 due, each fired once.

Each due row is a DCP-07 tier deadline: the sweeper claims it, the ``dispute_tier`` handler
decides the escalation (R4) through a lifecycle port kept in memory here (the lifecycle's
own writes are not part of this figure), and the next tier's deadline is armed in the same
transaction. SQLite: one sweeper. PostgreSQL: two sweepers racing on their own connection
pools (threads), with the split between them and the number of doubles (must be 0). The
baseline is a bare ``UPDATE`` of the same number of rows, timed in the same run.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta

import psycopg
from common import Result
from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

from accord.clock import FrozenClock
from accord.conflicts import Severity, Tier
from accord.dcp07.deadlines import DeadlineStep
from accord.deadlines import DeadlineSweep, arm_many, new_deadline
from accord.deadlines.dispute_tier import DISPUTE_TIER, DisputeAtDeadline, DisputeTierHandler
from accord.store import Database, open_database

START = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
BATCH = 500
ARM_CHUNK = 5_000


class MemoryLifecycle:
    """The lifecycle port over a dict: every dispute unresolved at direct negotiation."""

    def __init__(self) -> None:
        self.escalated: Counter[str] = Counter()
        self._lock = threading.Lock()

    def dispute_at_deadline(self, conn: Connection, dispute_id: str) -> DisputeAtDeadline:
        return DisputeAtDeadline(
            dispute_id=dispute_id,
            tier=Tier.DIRECT_NEGOTIATION,
            severity=Severity.HIGH,
            unresolved=True,
        )

    def apply_deadline(
        self, conn: Connection, dispute_id: str, step: DeadlineStep, now: datetime
    ) -> None:
        with self._lock:
            self.escalated[dispute_id] += 1


def arm_disputes(db: Database, total: int, due: int) -> None:
    """``total`` armed tier deadlines; the first ``due`` pass at START + 1 h, the rest later."""
    for first in range(0, total, ARM_CHUNK):
        rows = [
            new_deadline(
                kind=DISPUTE_TIER,
                subject_id=f"disp:{n:08d}",
                due_at=START + (timedelta(minutes=30) if n < due else timedelta(days=2)),
                now=START,
                tier=Tier.DIRECT_NEGOTIATION.value,
            )
            for n in range(first, min(first + ARM_CHUNK, total))
        ]
        with db.write() as conn:
            arm_many(conn, rows)


def bare_update_seconds(db: Database, total: int, due: int) -> float:
    """A bare UPDATE of ``due`` rows of a ``total``-row table, in one transaction."""
    with db.write() as conn:
        conn.execute(text("DROP TABLE IF EXISTS bench_bare"))
        conn.execute(text("CREATE TABLE bench_bare (id INTEGER PRIMARY KEY, state VARCHAR(16))"))
        conn.execute(
            text("INSERT INTO bench_bare (id, state) VALUES (:id, 'armed')"),
            [{"id": n} for n in range(total)],
        )
    began = time.perf_counter()
    with db.write() as conn:
        conn.execute(text("UPDATE bench_bare SET state = 'fired' WHERE id < :due"), {"due": due})
    return time.perf_counter() - began


def fired_counts(db: Database) -> tuple[int, int, Counter[str], int]:
    """Fired rows, distinct subjects among them, the split by sweeper, rows re-armed."""
    with db.read() as conn:
        fired = conn.execute(
            text("SELECT subject_id, fired_by FROM deadlines WHERE state = 'fired'")
        ).all()
        rearmed = conn.execute(
            text("SELECT count(*) FROM deadlines WHERE state = 'armed' AND tier = :tier"),
            {"tier": Tier.CONTEXTUAL_ARBITRATION.value},
        ).scalar_one()
    return len(fired), len({s for s, _ in fired}), Counter(b for _, b in fired), int(rearmed)


def sweep_sqlite(total: int, due: int) -> list[Result]:
    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(f"sqlite:///{tmp}/bench.db")
        try:
            arm_disputes(db, total, due)
            clock = FrozenClock(START + timedelta(hours=1))
            lifecycle = MemoryLifecycle()
            sweep = DeadlineSweep(
                db, clock, {DISPUTE_TIER: DisputeTierHandler(lifecycle)}, sweeper_id="sweeper:a"
            )
            began = time.perf_counter()
            report = sweep.run(batch=BATCH)
            seconds = time.perf_counter() - began
            fired, distinct, _, rearmed = fired_counts(db)
            bare = bare_update_seconds(db, total, due)
        finally:
            db.dispose()
    once = fired == distinct == len(report.fired) == due and set(lifecycle.escalated.values()) == {
        1
    }
    return [
        Result(
            f"sweep {due:,} due of {total:,} armed (SQLite, 1 sweeper)",
            seconds,
            "s",
            baseline=f"bare UPDATE of {due:,} rows: {bare:.3f} s",
            ratio=seconds / bare,
            target="< 10 s, each fired once",
            passed=seconds < 10 and once and rearmed == due,
            notes=f"{due / seconds:,.0f} deadlines/s; fired {fired:,}, doubles {fired - distinct}, "
            f"next tier armed {rearmed:,}; batches of {BATCH}",
        )
    ]


def sweep_postgres(base_url: str, total: int, due: int) -> list[Result]:
    schema = f"bench_deadlines_{os.getpid()}"
    libpq = make_url(base_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    url_s = url.render_as_string(hide_password=False)
    databases: list[Database] = []
    try:
        databases = [open_database(url_s) for _ in range(2)]
        arm_disputes(databases[0], total, due)
        clock = FrozenClock(START + timedelta(hours=1))
        lifecycle = MemoryLifecycle()
        sweeps = [
            DeadlineSweep(
                d, clock, {DISPUTE_TIER: DisputeTierHandler(lifecycle)}, sweeper_id=f"sweeper:{i}"
            )
            for i, d in enumerate(databases)
        ]
        start = threading.Barrier(len(sweeps) + 1)
        fired_by_report = [0 for _ in sweeps]

        def race(index: int) -> None:
            start.wait()
            fired_by_report[index] = len(sweeps[index].run(batch=BATCH).fired)

        threads = [threading.Thread(target=race, args=(i,)) for i in range(len(sweeps))]
        for thread in threads:
            thread.start()
        start.wait()
        began = time.perf_counter()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - began
        fired, distinct, split, rearmed = fired_counts(databases[0])
        bare = bare_update_seconds(databases[0], total, due)
    finally:
        for database in databases:
            database.dispose()
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    doubles = fired - distinct + sum(n - 1 for n in lifecycle.escalated.values())
    once = fired == distinct == sum(fired_by_report) == due and doubles == 0
    split_text = " / ".join(f"{split[s.sweeper_id]:,}" for s in sweeps)
    return [
        Result(
            f"sweep {due:,} due of {total:,} armed (PostgreSQL, 2 sweepers racing)",
            seconds,
            "s",
            baseline=f"bare UPDATE of {due:,} rows: {bare:.3f} s",
            ratio=seconds / bare,
            target="< 10 s, 0 doubles",
            passed=seconds < 10 and once and rearmed == due,
            notes=f"split {split_text}; doubles {doubles}; {due / seconds:,.0f} deadlines/s",
            extra={"split": dict(split), "doubles": doubles},
        )
    ]


def run(quick: bool) -> list[Result]:
    total, due = (20_000, 2_000) if quick else (100_000, 10_000)
    results = sweep_sqlite(total, due)
    pg = os.environ.get("ACCORD_TEST_POSTGRES_URL") or os.environ.get("ACCORD_BENCH_POSTGRES_URL")
    if not pg:
        results.append(
            Result(
                "sweep (PostgreSQL, 2 sweepers)",
                0,
                "-",
                notes="skipped: set ACCORD_TEST_POSTGRES_URL",
            )
        )
        return results
    results.extend(sweep_postgres(pg, total, due))
    return results
