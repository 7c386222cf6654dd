"""Ledger benchmarks (issue: foundation): append and verify rates against bare Ed25519."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import nacl.bindings
import psycopg
from common import Result, TreeMemorySampler, rate
from sqlalchemy.engine import make_url

from accord.clock import SystemClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger, TrustRoot
from accord.store import Database, open_database

HERE = Path(__file__).resolve().parent
SEED = bytes(range(32))
BATCH = 500


def record(i: int) -> dict[str, object]:
    return {
        "case_id": f"case:{i}",
        "agents": ["agent:billing", "agent:audit", "agent:finance-lead"],
        "winner": "agent:billing",
        "confidence_bp": 8500,
        "rung": "vote",
        "kind": "numerical_inconsistency",
        "severity": "medium",
        "duration_ms": 3,
    }


def sample_message(signer: Ed25519Signer) -> bytes:
    from accord.crypto import canonical_bytes
    from accord.ledger.entry import ChainHead, seal

    sealed = seal(
        1,
        "dispute_resolved",
        canonical_bytes(record(1)),
        ChainHead.genesis(),
        signer,
        "2026-11-29T12:00:00.000000Z",
    )
    return b"DCP-DISPUTE-SIG-v2\x00" + sealed.body


def bare_sign_rate(signer: Ed25519Signer, message: bytes, n: int = 30_000) -> float:
    sk = signer._secret_key
    sign = nacl.bindings.crypto_sign
    return rate(n, lambda: [sign(message, sk) for _ in range(n)] and None)


def bare_verify_rate(signer: Ed25519Signer, message: bytes, n: int = 20_000) -> float:
    signed = signer.sign(message) + message
    pk = signer.public_key
    open_ = nacl.bindings.crypto_sign_open
    return rate(n, lambda: [open_(signed, pk) for _ in range(n)] and None)


def append_batched(ledger: Ledger, start: int, count: int) -> float:
    def work() -> None:
        for b in range(start, start + count, BATCH):
            ledger.append_many(
                [("dispute_resolved", record(i)) for i in range(b, min(b + BATCH, start + count))]
            )

    return rate(count, work)


def verify_in_child(url: str, workers: int) -> dict[str, float]:
    """Verify in a fresh process (so its memory is only verification's), sampled with children."""
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "verify_child.py"), url, SEED.hex(), str(workers)],
        stdout=subprocess.PIPE,
        text=True,
    )
    with TreeMemorySampler(proc.pid) as sampler:
        out, _ = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"verify child failed: {out}")
    data = json.loads(out)
    data["peak_mb"] = sampler.peak_kb / 1024
    return data


def pg_writers(base_url: str, writers: int, per_writer: int, batch: int) -> tuple[float, int]:
    schema = f"bench_{os.getpid()}"
    libpq = make_url(base_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = make_url(base_url).update_query_dict({"options": f"-csearch_path={schema}"})
    url_s = url.render_as_string(hide_password=False)
    try:
        open_database(url_s).dispose()
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    str(HERE / "append_child.py"),
                    url_s,
                    SEED.hex(),
                    str(per_writer),
                    f"w{i}",
                    str(batch),
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for i in range(writers)
        ]
        for p in procs:  # every writer connected and waiting
            assert p.stdout is not None
            if p.stdout.readline().strip() != "ready":
                raise RuntimeError("a writer failed to start")
        for p in procs:
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        spans = []
        for p in procs:
            out, _ = p.communicate()
            if p.returncode != 0:
                raise RuntimeError("a writer failed")
            began, ended = map(float, out.split())
            spans.append((began, ended))
        elapsed = max(e for _, e in spans) - min(b for b, _ in spans)
        db = Database(url_s)
        signer = Ed25519Signer.from_seed(SEED)
        ledger = Ledger(db, signer, SystemClock())
        report = ledger.verify(TrustRoot(signer.kid, signer.public_key))
        db.dispose()
        return writers * per_writer / elapsed, report.entries
    finally:
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def run(quick: bool) -> list[Result]:
    results: list[Result] = []
    signer = Ed25519Signer.from_seed(SEED)
    message = sample_message(signer)
    sign_rate = bare_sign_rate(signer, message)
    verify_rate = bare_verify_rate(signer, message)
    results.append(Result("bare Ed25519 sign (libsodium, 1 core)", sign_rate, "sig/s"))
    results.append(Result("bare Ed25519 verify (libsodium, 1 core)", verify_rate, "verify/s"))

    sizes = [10_000, 100_000] if quick else [10_000, 100_000, 1_000_000]
    window = 10_000
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        db = open_database(url)
        ledger = Ledger(db, signer, SystemClock())
        single_n = 2_000
        single = rate(
            single_n,
            lambda: (
                [ledger.append("dispute_resolved", record(i)) for i in range(single_n)] and None
            ),
        )
        results.append(
            Result(
                "append, 1 per transaction (SQLite, fsync each)",
                single,
                "entries/s",
                notes="synchronous=FULL: every append durable on return",
            )
        )
        size = ledger.size()
        append_rates: dict[int, float] = {}
        verify_rates: dict[int, dict[str, float]] = {}
        for target in sizes:
            if target - size > window:
                append_batched(ledger, size, target - size - window)
            append_rates[target] = append_batched(ledger, target - window, window)
            size = target
            verify_rates[target] = verify_in_child(url, workers=os.cpu_count() or 1)
        db.dispose()

    for target in sizes:
        r = append_rates[target]
        ratio = r / sign_rate
        results.append(
            Result(
                f"append, batches of {BATCH} (SQLite), at {target:,} entries",
                r,
                "entries/s",
                baseline="bare sign",
                ratio=ratio,
                target=">= 0.35x" if target == sizes[0] else "flat",
                passed=ratio >= 0.35 if target == sizes[0] else None,
                notes="canonicalize + hash + sign + persist; fsync per batch",
            )
        )
    for target in sizes:
        v = verify_rates[target]
        ratio = v["rate"] / verify_rate
        big = target == sizes[-1]
        results.append(
            Result(
                f"full verify of {target:,} entries ({int(v['workers'])} workers)",
                v["rate"],
                "entries/s",
                baseline="bare verify 1 core",
                ratio=ratio,
                target=">= 1.5x, < 200 MB" if big else "flat",
                passed=(ratio >= 1.5 and v["peak_mb"] < 200) if big else None,
                notes=f"peak {v['peak_mb']:.0f} MB (process tree)",
                extra=v,
            )
        )
    first, last = sizes[0], sizes[-1]
    results.append(
        Result(
            f"append cost growth {first:,} -> {last:,}",
            append_rates[first] / append_rates[last],
            "x",
            target="~1 (flat per entry)",
            notes="rate at small / rate at large",
        )
    )
    results.append(
        Result(
            f"verify cost growth {first:,} -> {last:,}",
            verify_rates[first]["rate"] / verify_rates[last]["rate"],
            "x",
            target="~1 (flat per entry)",
            notes="rate at small / rate at large (small includes fork start-up)",
        )
    )

    pg = os.environ.get("ACCORD_TEST_POSTGRES_URL") or os.environ.get("ACCORD_BENCH_POSTGRES_URL")
    if not pg:
        results.append(
            Result(
                "append, 4 writer processes (PostgreSQL)",
                0,
                "-",
                notes="skipped: set ACCORD_TEST_POSTGRES_URL",
            )
        )
        return results
    per = 400 if quick else 1_200
    for batch in (1, 4):
        try:
            total_rate, entries = pg_writers(pg, 4, per, batch)
        except Exception as exc:  # keep the SQLite figures even if PostgreSQL fails
            results.append(
                Result(
                    f"append, 4 writer processes (PostgreSQL, {batch} per txn)",
                    0,
                    "-",
                    passed=False,
                    notes=f"failed: {exc!r}"[:150],
                )
            )
            continue
        label = "1 per txn" if batch == 1 else f"{batch} per txn (one case's events)"
        results.append(
            Result(
                f"append, 4 writer processes (PostgreSQL, {label})",
                total_rate,
                "entries/s",
                target=">= 1,000/s, chain intact",
                passed=total_rate >= 1000 and entries == 4 * per,
                notes=f"verified all {entries} entries after the run",
            )
        )
    return results
