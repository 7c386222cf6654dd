"""Precedent search benchmarks (issue 12, R24): search over 100,000 signed bundles.

The registry is filled through the library's own bulk path, ``PrecedentStore.add_many``:
every bundle is built, signed (Ed25519, DCP-DISPUTE-SIG-v2) and chained like any other, in
transactions of 5,000 bundles whose rows go to the driver as one executemany per table.
Queries mix no condition (25 %), one (50 %) and two (25 %) over a vocabulary of 400
conditions, limit 10, timed end to end through ``PrecedentSearch.search`` (validation, SQL,
parsing the signed documents). The baseline, timed in the same run, is the cheapest read
there is: one document by primary key in a read transaction, not parsed. The machine is
shared, so the ratio is the figure to compare across runs; the p99 target is absolute.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import psycopg
from common import Result
from sqlalchemy import bindparam, select
from sqlalchemy.engine import make_url

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.precedents import BundleDraft, PrecedentSearch, PrecedentStore
from accord.store import Database, open_database
from accord.store.tables import precedent_bundles

SEED = bytes(range(32))
BATCH = 5_000
QUERIES = 2_000
TYPES = ("resource_conflict", "directive_conflict", "capability_conflict", "policy_conflict")
TIERS = ("direct_negotiation", "contextual_arbitration", "human_appeal")
CONDITIONS = [f"condition_{i:03d}" for i in range(400)]
TARGET_P99_MS = 10.0


def _draft(rng: random.Random, i: int, supersedes: list[str]) -> BundleDraft:
    kind = TYPES[i % len(TYPES)]
    picked = rng.sample(CONDITIONS, 4)
    return BundleDraft.model_validate(
        {
            "dispute_id": f"disp:019ad0f4-0000-7000-8000-{i:012x}",
            "resolution_id": f"res:019ad0f4-0000-7000-8000-{i:012x}",
            "classification": {
                "dispute_type": kind,
                "resource_category": f"category_{i % 50}",
                "resolution_pattern": "time_sharing",
                "tags": ["bench"],
            },
            "summary": {
                "facts": f"Bench dispute {i}: two agents claimed the same resource.",
                "holding": "Share it by the hour.",
                "rationale": "Neither claim outranked the other.",
            },
            "applicability": {
                "applicable_dispute_types": [kind],
                "applicable_conditions": picked[:3],
                "inapplicable_conditions": picked[3:],
            },
            "supersedes": supersedes,
            "authority_level": rng.choice(TIERS),
            "dispute_record_hash": "sha256:" + f"{i:064x}",
            "resolution_record_hash": "sha256:" + f"{i + 1:064x}",
        }
    )


def load(db: Database, n: int) -> tuple[float, list[str]]:
    """Fill the registry with ``n`` bundles (5 % superseding an earlier one); the rate and
    the ids."""
    rng = random.Random(7)
    clock = FrozenClock(datetime(2026, 1, 1, tzinfo=UTC))
    store = PrecedentStore(db, clock)
    signer = Ed25519Signer.from_seed(SEED)
    ids: list[str] = []
    began = time.perf_counter()
    for start in range(0, n, BATCH):
        drafts = [
            _draft(rng, i, [rng.choice(ids)] if ids and rng.random() < 0.05 else [])
            for i in range(start, min(n, start + BATCH))
        ]
        ids.extend(b.jurisprudence_id for b in store.add_many(drafts, signer))
        clock.advance(timedelta(minutes=10))
    return n / (time.perf_counter() - began), ids


def _percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


def _timed(calls: list[Callable[[], object]]) -> list[float]:
    for call in calls[:50]:  # warm the caches and the statement cache
        call()
    samples = []
    for call in calls:
        began = time.perf_counter()
        call()
        samples.append(time.perf_counter() - began)
    return samples


def measure(db: Database, ids: list[str]) -> dict[str, float]:
    rng = random.Random(11)
    search = PrecedentSearch(db)
    store = PrecedentStore(db, FrozenClock())
    queries: list[Callable[[], object]] = []
    for q in range(QUERIES):
        kind = TYPES[q % len(TYPES)]
        count = (0, 1, 1, 2)[rng.randrange(4)]
        conditions = rng.sample(CONDITIONS, count)
        queries.append(lambda k=kind, c=conditions: search.search(k, c, limit=10))
    found = sum(len(search.search(TYPES[0], [c], limit=10)) for c in CONDITIONS[:20])
    search_p50, search_p99 = _percentiles(_timed(queries))
    picked = [rng.choice(ids) for _ in range(QUERIES)]
    by_key = select(precedent_bundles.c.document).where(
        precedent_bundles.c.jurisprudence_id == bindparam("jid")
    )

    def primary_key_read(jid: str) -> object:
        with db.read() as conn:
            return conn.execute(by_key, {"jid": jid}).scalar_one()

    keyed: list[Callable[[], object]] = [lambda j=j: primary_key_read(j) for j in picked]
    key_p50, key_p99 = _percentiles(_timed(keyed))
    lookups: list[Callable[[], object]] = [lambda j=j: store.get(j) for j in picked]
    get_p50, get_p99 = _percentiles(_timed(lookups))
    return {
        "search_p50_ms": search_p50,
        "search_p99_ms": search_p99,
        "key_p50_ms": key_p50,
        "key_p99_ms": key_p99,
        "get_p50_ms": get_p50,
        "get_p99_ms": get_p99,
        "avg_results_one_condition": found / 20,
    }


@contextmanager
def postgres_schema(base_url: str) -> Iterator[str]:
    schema = f"bench_prec_{os.getpid()}"
    libpq = make_url(base_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _engine_results(engine: str, url: str, n: int) -> list[Result]:
    db = open_database(url)
    try:
        load_rate, ids = load(db, n)
        figures = measure(db, ids)
    finally:
        db.dispose()
    ratio = figures["search_p99_ms"] / figures["key_p99_ms"]
    return [
        Result(
            f"bulk load {n:,} signed bundles ({engine}, add_many of {BATCH:,})",
            load_rate,
            "bundles/s",
            notes="build + sign + chain + index rows, executemany per table",
        ),
        Result(
            f"precedent search p50 over {n:,} ({engine})",
            figures["search_p50_ms"],
            "ms",
            baseline="primary-key read p50",
            ratio=figures["search_p50_ms"] / figures["key_p50_ms"],
            notes=f"0-2 conditions, limit 10, {QUERIES:,} queries",
        ),
        Result(
            f"precedent search p99 over {n:,} ({engine})",
            figures["search_p99_ms"],
            "ms",
            baseline="primary-key read p99",
            ratio=ratio,
            target=f"< {TARGET_P99_MS:g} ms",
            passed=figures["search_p99_ms"] < TARGET_P99_MS,
            notes=f"~{figures['avg_results_one_condition']:.1f} results per one-condition query",
            extra=figures,
        ),
        Result(
            f"primary-key read p99 ({engine}, baseline)",
            figures["key_p99_ms"],
            "ms",
            notes=f"p50 {figures['key_p50_ms']:.3f} ms; one document by id, not parsed",
        ),
        Result(
            f"PrecedentStore.get p99 ({engine})",
            figures["get_p99_ms"],
            "ms",
            baseline="primary-key read p99",
            ratio=figures["get_p99_ms"] / figures["key_p99_ms"],
            notes=f"p50 {figures['get_p50_ms']:.3f} ms; read + edges + parse one bundle",
        ),
    ]


def run(quick: bool) -> list[Result]:
    n = 10_000 if quick else 100_000
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as tmp:
        results.extend(_engine_results("SQLite", f"sqlite:///{tmp}/precedents.db", n))
    pg = os.environ.get("ACCORD_TEST_POSTGRES_URL") or os.environ.get("ACCORD_BENCH_POSTGRES_URL")
    if not pg:
        results.append(
            Result(
                "precedent search (PostgreSQL)",
                0,
                "-",
                notes="skipped: set ACCORD_TEST_POSTGRES_URL",
            )
        )
        return results
    try:
        with postgres_schema(pg) as url:
            results.extend(_engine_results("PostgreSQL", url, n))
    except Exception as exc:  # keep the SQLite figures even if PostgreSQL fails
        results.append(
            Result(
                "precedent search (PostgreSQL)",
                0,
                "-",
                passed=False,
                notes=f"failed: {exc!r}"[:150],
            )
        )
    return results
