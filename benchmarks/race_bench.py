"""Racing reviewers (issue 13): two `accord serve` processes on one PostgreSQL database, two
reviewers deciding the same items at the same moment through both servers. Every item must
end with exactly one decision (the others 409), one ``approval_decided`` ledger entry, and
``accord verify`` must pass on the whole chain afterwards (no fork, no gap).

PostgreSQL: ``ACCORD_BENCH_POSTGRES_URL`` (``make bench`` sets the machine's server); the
benchmark works in a schema of its own, dropped at the end.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
import psycopg
from common import Result
from service_common import REFUND, Instance, percentile, prepare, serving
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from accord.store.tables import ledger_entries

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def _items(instance: Instance, n: int) -> list[str]:
    accord = instance.open()
    try:
        out = []
        for i in range(n):
            case = accord.settle(f"refund {i}", REFUND, task_type="refunds")
            assert case.approval_item_id is not None
            out.append(case.approval_item_id)
        return out
    finally:
        accord.close()


async def _race(
    bases: list[str], reviewers: tuple[str, ...], items: list[str]
) -> tuple[Counter[int], Counter[int], list[float]]:
    """Each item: every reviewer on every server, all at once (4 requests an item), 10 items
    in flight. Returns statuses, successes per item (histogram), latencies."""
    statuses: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    latencies: list[float] = []
    gate = asyncio.Semaphore(10)
    async with httpx.AsyncClient(timeout=60.0) as client:

        async def one(base: str, token: str, item: str, choice: str) -> int:
            began = time.perf_counter()
            answer = await client.post(
                f"{base}/api/v1/approvals/{item}/decision",
                json={"choice": choice, "reasoning": "race"},
                headers={"Authorization": f"Bearer {token}"},
            )
            latencies.append(time.perf_counter() - began)
            statuses[answer.status_code] += 1
            return answer.status_code

        async def item_race(item: str) -> None:
            async with gate:
                answers = await asyncio.gather(
                    *(
                        one(base, token, item, choice)
                        for base in bases
                        for token, choice in zip(reviewers, ("approve", "reject"), strict=True)
                    )
                )
                wins[sum(1 for s in answers if s == 200)] += 1

        await asyncio.gather(*(item_race(i) for i in items))
    return statuses, wins, latencies


def _postgres(base_url: str, schema: str) -> tuple[str, str]:
    libpq = make_url(base_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    return libpq, url.render_as_string(hide_password=False)


def run(quick: bool) -> list[Result]:
    base_url = os.environ.get("ACCORD_BENCH_POSTGRES_URL", DEFAULT_URL)
    schema = f"bench_race_{uuid.uuid4().hex[:8]}"
    libpq, url = _postgres(base_url, schema)
    n = 100 if quick else 400
    try:
        with tempfile.TemporaryDirectory() as tmp:
            instance = prepare(Path(tmp), url)
            items = _items(instance, n)
            with serving(instance) as (one, _), serving(instance) as (two, _):
                began = time.perf_counter()
                statuses, wins, latencies = asyncio.run(
                    _race([one, two], instance.reviewers, items)
                )
                elapsed = time.perf_counter() - began
            accord = instance.open()
            try:
                report = accord.verify()
                with accord.db.read() as conn:
                    decided_entries = conn.execute(
                        select(func.count())
                        .select_from(ledger_entries)
                        .where(ledger_entries.c.event_type == "approval_decided")
                    ).scalar_one()
            finally:
                accord.close()
    finally:
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    doubles = sum(count for won, count in wins.items() if won > 1)
    undecided = wins.get(0, 0)
    requests = sum(statuses.values())
    other = {k: v for k, v in statuses.items() if k not in (200, 409)}
    return [
        Result(
            f"race: 2 servers x 2 reviewers on {n} items (PostgreSQL)",
            float(doubles),
            "double decisions",
            target="0 doubles, 0 undecided",
            passed=doubles == 0 and undecided == 0 and decided_entries == n,
            notes=(
                f"{statuses.get(200, 0)} decisions, {statuses.get(409, 0)} answered 409, "
                f"other {other}; "
                f"{decided_entries} approval_decided entries; {undecided} undecided"
            ),
        ),
        Result(
            "race: accord verify after the run",
            float(report.entries),
            "entries verified",
            target="chain verifies (no fork)",
            passed=True,  # verify() raises VerificationFailed on a fork or a bad entry
            notes=f"{report.checkpoints} checkpoints; {report.cases} cases re-checked",
        ),
        Result(
            "race: decision requests",
            round(requests / elapsed, 1),
            "requests/s",
            notes=f"p99 {percentile(latencies, 0.99) * 1000:.0f} ms (two servers, 4 racers/item)",
        ),
    ]
