"""Dispute sweep benchmark (issue 12): 100,000 open DCP-07 disputes, 10,000 due, each
escalated exactly once by the real, persisted lifecycle.

N disputes are filed through ``Accord.disputes.open_many`` (batches of ``FILE_BATCH``) on a
frozen clock moved ``SPREAD`` after each batch: every tenth is ``high`` (R3: a 1 h tier
deadline), the rest ``low`` (24 h). The clock then stands at 2 h after the first filing, so
exactly the high ones are due; the sweep is the one
``accord sweep`` runs (``deadline_sweep(..., disputes=accord.disputes.deadlines)``), timed
until a run finds nothing due. Each escalation (R4) is the lifecycle's own write: the
dispute's row and §4 record, a timeline row, a signed ledger event and the next tier's
deadline, in the sweeper's transaction (a batch of ``SWEEP_BATCH`` per transaction: the
disputes read in one query, their events signed and appended in one ledger append).
SQLite: one sweeper. PostgreSQL: two sweepers racing (threads, each its own ``Accord`` and
connection pool on one schema). One more SQLite row files every batch at the same instant
(a burst: all due rows share one ``due_at``); at 100k it was no slower than the spread
filings.

Checked afterwards: every due dispute has exactly one ``dispute_escalated`` event (timeline
rows and ledger entries; zero doubles, zero missing) and sits at contextual arbitration with
its next deadline armed; no other dispute moved; a second sweep fires nothing;
``accord.verify()`` passes (the whole ledger and every dispute row, at every size; timed).
The baseline, timed in the same run on the same deadline rows (count, due times) and sweep
batch, fires them through ``deadline_bench``'s in-memory lifecycle port: claiming and
re-arming only, no dispute writes.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
from common import Result
from deadline_bench import START, MemoryLifecycle
from sqlalchemy import text
from sqlalchemy.engine import make_url

from accord.app import Accord
from accord.app.deadline_sweep import deadline_sweep
from accord.clock import FrozenClock
from accord.conflicts import Severity, Tier
from accord.deadlines import DeadlineSweep, arm_many
from accord.deadlines.dispute_tier import DISPUTE_TIER, DisputeTierHandler, new_tier_deadline
from accord.store import Database, open_database

FILE_BATCH = 1_000  # Disputes.MAX_FILINGS_PER_CALL
SWEEP_BATCH = 100  # DeadlineSweep.run's default, what `accord sweep` uses
DUE_EVERY = 10  # every 10th dispute is high severity: 10 % due
SWEEP_AT = START + timedelta(hours=2)  # past every high's 1 h, before any low's 24 h
SPREAD = timedelta(seconds=1)  # the clock's step between filing batches
TARGET_SECONDS = 10.0


def is_due(i: int) -> bool:
    return i % DUE_EVERY == 0


def filing(i: int) -> dict[str, Any]:
    """Dispute ``i``: high (due after 2 h) when ``i`` is a multiple of 10, else low."""
    return {
        "dispute_type": "resource_conflict",
        "severity": "high" if is_due(i) else "low",
        "complainant": f"agent:planner-{i}",  # R34: at most 10 filings per filer per day
        "respondents": [f"agent:trainer-{i}"],
        "subject": "Both booked gpu-7 for tonight",
        "evidence": [
            {
                "evidence_type": "booking",
                "reference": f"cal:{i}",
                "description": "a booking",
                "content": {"gpu": "gpu-7", "from": "20:00", "booking": i},
            }
        ],
    }


def config_text(url: str, keys: str) -> str:
    return f"database: {{url: '{url}'}}\nkeys: {{directory: {keys}}}\n"


def file_disputes(
    accord: Accord, clock: FrozenClock, total: int, spread: timedelta
) -> tuple[float, list[str]]:
    """File ``total`` disputes from START, ``spread`` apart per batch, then set the clock to
    SWEEP_AT; the seconds filing took and the due disputes' ids."""
    due: list[str] = []
    began = time.perf_counter()
    for first in range(0, total, FILE_BATCH):
        done = accord.disputes.open_many(
            [filing(i) for i in range(first, min(first + FILE_BATCH, total))]
        )
        due.extend(d.record.dispute_id for d in done if d.record.severity == "high")
        clock.advance(spread)
    seconds = time.perf_counter() - began
    clock.advance(SWEEP_AT - clock.now())
    return seconds, due


def arm_like_filings(db: Database, total: int, spread: timedelta) -> None:
    """The baseline's rows: the tier deadlines ``file_disputes`` arms, without disputes."""
    for batch, first in enumerate(range(0, total, FILE_BATCH)):
        at = START + batch * spread
        rows = [
            new_tier_deadline(
                f"disp:{i:08d}",
                Tier.DIRECT_NEGOTIATION,
                Severity.HIGH if is_due(i) else Severity.LOW,
                at,
            )
            for i in range(first, min(first + FILE_BATCH, total))
        ]
        with db.write() as conn:
            arm_many(conn, rows)


def race(sweeps: list[DeadlineSweep]) -> tuple[float, list[int], float]:
    """Run every sweep in its own thread, released together; wall seconds, each's fired, and
    the process's CPU seconds meanwhile (the machine is shared: wall time carries the load)."""
    start = threading.Barrier(len(sweeps) + 1)
    fired = [0 for _ in sweeps]
    errors: list[BaseException] = []

    def one(index: int) -> None:
        start.wait()
        try:
            fired[index] = len(sweeps[index].run(batch=SWEEP_BATCH).fired)
        except BaseException as exc:  # surfaced below, not lost in the thread
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(sweeps))]
    for thread in threads:
        thread.start()
    start.wait()
    began, cpu = time.perf_counter(), time.process_time()
    for thread in threads:
        thread.join()
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    if errors:
        raise errors[0]
    return seconds, fired, cpu


def memory_port_sweep(databases: list[Database], total: int, due: int, spread: timedelta) -> float:
    """The baseline: the same deadline rows swept through ``deadline_bench``'s in-memory
    lifecycle port."""
    arm_like_filings(databases[0], total, spread)
    clock = FrozenClock(SWEEP_AT)
    lifecycle = MemoryLifecycle()
    sweeps = [
        DeadlineSweep(
            d, clock, {DISPUTE_TIER: DisputeTierHandler(lifecycle)}, sweeper_id=f"memory:{i}"
        )
        for i, d in enumerate(databases)
    ]
    seconds, fired, _ = race(sweeps)
    if sum(fired) != due or set(lifecycle.escalated.values()) != {1}:
        raise RuntimeError(f"baseline sweep fired {sum(fired)} of {due}")
    return seconds


def check(accord: Accord, due_ids: list[str], total: int) -> dict[str, Any]:
    """Escalations per dispute (timeline and ledger), who fired them, what else moved."""
    due_set = set(due_ids)
    with accord.db.read() as conn:
        timeline = Counter(
            dict(
                conn.execute(
                    text(
                        "SELECT dispute_id, count(*) FROM dcp_dispute_events "
                        "WHERE event_type = 'dispute_escalated' GROUP BY dispute_id"
                    )
                ).all()
            )
        )
        ledger_escalations = conn.execute(
            text("SELECT count(*) FROM ledger_entries WHERE event_type = 'dispute_escalated'")
        ).scalar_one()
        tiers = Counter(
            dict(conn.execute(text("SELECT tier, count(*) FROM dcp_disputes GROUP BY tier")).all())
        )
        at_arbitration = {
            r[0]
            for r in conn.execute(
                text("SELECT dispute_id FROM dcp_disputes WHERE tier = :t"),
                {"t": Tier.CONTEXTUAL_ARBITRATION.value},
            )
        }
        moved_not_due = conn.execute(
            text(
                "SELECT count(*) FROM dcp_disputes WHERE severity = 'low' "
                "AND (tier <> :t OR version <> 1)"
            ),
            {"t": Tier.DIRECT_NEGOTIATION.value},
        ).scalar_one()
        split = Counter(
            dict(
                conn.execute(
                    text(
                        "SELECT fired_by, count(*) FROM deadlines WHERE state = 'fired' "
                        "GROUP BY fired_by"
                    )
                ).all()
            )
        )
        rearmed = conn.execute(
            text("SELECT count(*) FROM deadlines WHERE state = 'armed' AND tier = :t"),
            {"t": Tier.CONTEXTUAL_ARBITRATION.value},
        ).scalar_one()
        disputes = sum(tiers.values())
    doubles = sum(n - 1 for n in timeline.values() if n > 1)
    missing = len(due_set - set(timeline))
    stray = len(set(timeline) - due_set) + len(at_arbitration ^ due_set)
    return {
        "disputes": disputes,
        "doubles": doubles,
        "missing": missing,
        "stray": stray,
        "moved_not_due": int(moved_not_due),
        "ledger_escalations": int(ledger_escalations),
        "rearmed": int(rearmed),
        "split": dict(split),
        "exact": disputes == total
        and doubles == missing == stray == moved_not_due == 0
        and ledger_escalations == len(due_set) == rearmed,
    }


def verified(accord: Accord) -> float:
    """``accord.verify()``'s seconds (it raises on any bad entry or altered dispute row)."""
    began = time.perf_counter()
    accord.verify()
    return time.perf_counter() - began


def sweep_result(
    label: str,
    total: int,
    due_ids: list[str],
    setup: float,
    seconds: float,
    baseline: float,
    outcome: dict[str, Any],
    verify_s: float,
    sweeper_ids: list[str],
) -> Result:
    due = len(due_ids)
    split_text = " / ".join(f"{outcome['split'].get(s, 0):,}" for s in sweeper_ids)
    return Result(
        f"sweep {due:,} due of {total:,} open disputes ({label})",
        seconds,
        "s",
        baseline=f"in-memory port sweep, same rows: {baseline:.3f} s",
        ratio=seconds / baseline,
        target=f"< {TARGET_SECONDS:.0f} s, each escalated once",
        passed=seconds < TARGET_SECONDS and outcome["exact"],
        notes=f"{due / seconds:,.0f} escalations/s (sweep CPU {outcome['cpu_seconds']:.1f} s); "
        f"split {split_text}; "
        f"doubles {outcome['doubles']}, missing {outcome['missing']}, "
        f"not-due moved {outcome['moved_not_due']}; verified in {verify_s:.1f} s; "
        f"filing took {setup:.1f} s ({total / setup:,.0f}/s)",
        extra={
            "escalations_per_s": due / seconds,
            "filing_seconds": setup,
            "verify_seconds": verify_s,
            **outcome,
        },
    )


def sweep_sqlite(total: int, spread: timedelta, label: str) -> list[Result]:
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "sweep.yaml"
        config.write_text(config_text(f"sqlite:///{tmp}/sweep.db", f"{tmp}/keys"))
        clock = FrozenClock(START)
        accord = Accord.open(config, clock=clock)
        try:
            setup, due_ids = file_disputes(accord, clock, total, spread)
            sweeper = deadline_sweep(
                accord.db,
                clock,
                accord.approvals,
                disputes=accord.disputes.deadlines,
                compliance=accord.disputes.compliance,
                sweeper_id="sweeper:a",
            )
            seconds, _, cpu = race([sweeper])
            again = len(sweeper.run().fired)
            outcome = check(accord, due_ids, total)
            outcome["cpu_seconds"] = cpu
            outcome["exact"] = outcome["exact"] and again == 0
            verify = verified(accord)
        finally:
            accord.close()
        base_db = open_database(f"sqlite:///{tmp}/baseline.db")
        try:
            baseline = memory_port_sweep([base_db], total, len(due_ids), spread)
        finally:
            base_db.dispose()
    return [
        sweep_result(
            label,
            total,
            due_ids,
            setup,
            seconds,
            baseline,
            outcome,
            verify,
            ["sweeper:a"],
        )
    ]


@contextmanager
def fresh_schema(base_url: str, name: str) -> Iterator[str]:
    """A new PostgreSQL schema, dropped afterwards; yields a URL whose search_path is it."""
    schema = f"{name}_{os.getpid()}"
    libpq = make_url(base_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
        yield url.render_as_string(hide_password=False)
    finally:
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _closing(items: list[Any], close: Callable[[Any], None]) -> None:
    for item in items:
        close(item)


def sweep_postgres(base_url: str, total: int) -> list[Result]:
    sweeper_ids = ["sweeper:0", "sweeper:1"]
    with fresh_schema(base_url, "bench_dispute_sweep") as url, tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "pg.yaml"
        config.write_text(config_text(url, f"{tmp}/keys"))
        clock = FrozenClock(START)
        accords: list[Accord] = []
        try:
            accords.append(Accord.open(config, clock=clock))
            setup, due_ids = file_disputes(accords[0], clock, total, SPREAD)
            accords.append(Accord.open(config, clock=clock))  # the second sweeper's own pool
            sweeps = [
                deadline_sweep(
                    a.db,
                    clock,
                    a.approvals,
                    disputes=a.disputes.deadlines,
                    compliance=a.disputes.compliance,
                    sweeper_id=s,
                )
                for a, s in zip(accords, sweeper_ids, strict=True)
            ]
            seconds, _, cpu = race(sweeps)
            again = sum(len(s.run().fired) for s in sweeps)
            outcome = check(accords[0], due_ids, total)
            outcome["cpu_seconds"] = cpu
            outcome["exact"] = outcome["exact"] and again == 0
            verify = verified(accords[0])
        finally:
            _closing(accords, Accord.close)
    with fresh_schema(base_url, "bench_dispute_sweep_base") as url:
        databases = [open_database(url) for _ in sweeper_ids]
        try:
            baseline = memory_port_sweep(databases, total, len(due_ids), SPREAD)
        finally:
            _closing(databases, Database.dispose)
    return [
        sweep_result(
            "PostgreSQL, 2 sweepers racing",
            total,
            due_ids,
            setup,
            seconds,
            baseline,
            outcome,
            verify,
            sweeper_ids,
        )
    ]


def run(quick: bool) -> list[Result]:
    total = 5_000 if quick else 100_000
    results = sweep_sqlite(
        total, SPREAD, f"SQLite, 1 sweeper, batches filed {SPREAD.seconds} s apart"
    )
    results.extend(sweep_sqlite(total, timedelta(0), "SQLite, 1 sweeper, all filed at one instant"))
    pg = os.environ.get("ACCORD_BENCH_POSTGRES_URL") or os.environ.get(
        "ACCORD_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    results.extend(sweep_postgres(pg, total))
    return results
