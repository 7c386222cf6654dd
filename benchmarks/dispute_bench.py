"""Dispute filing benchmarks (issue 12): ``Disputes.open_many`` on SQLite, batched.

Each filing has two evidence items (JSON content, hashed and stored content-addressed), is
checked against the flooding rules (R34: the filer's recent filings are read), searches the
precedent registry (R24, empty here), arms its tier deadline, is signed (its §4 record, under
``DCP-DISPUTE-SIG-v2``) and appended as a signed ledger entry, all in transactions of
``BATCH`` filings. The baseline, timed in the same run on a fresh database, is the bare
ledger: ``Ledger.append_many`` of a settle-sized record in batches of the same size. The
figure to compare across runs is the ratio; the target is absolute (>= 1,000 filings/s).
"""

from __future__ import annotations

import tempfile
from typing import Any

from common import Result, rate
from ledger_bench import record

from accord.clock import SystemClock
from accord.crypto import Ed25519Signer
from accord.disputes import Disputes
from accord.ledger import Ledger
from accord.precedents import Precedents, PrecedentSearch, PrecedentStore
from accord.store import open_database

SEED = bytes(range(32))
BATCH = 200
TARGET = 1_000.0


def filing(i: int) -> dict[str, Any]:
    return {
        "dispute_type": "resource_conflict",
        "severity": "medium",
        "complainant": f"agent:planner-{i}",
        "respondents": [f"agent:trainer-{i}"],
        "subject": "Both booked gpu-7 for tonight",
        "evidence": [
            {
                "evidence_type": "booking",
                "reference": f"cal:{i}:{n}",
                "description": "a booking",
                "content": {"gpu": "gpu-7", "from": "20:00", "booking": i * 2 + n},
            }
            for n in range(2)
        ],
    }


def _ledger_baseline(tmp: str, count: int) -> float:
    db = open_database(f"sqlite:///{tmp}/ledger.db")
    ledger = Ledger(db, Ed25519Signer.from_seed(SEED), SystemClock())

    def work() -> None:
        for b in range(0, count, BATCH):
            ledger.append_many(
                [("dispute_resolved", record(i)) for i in range(b, min(b + BATCH, count))]
            )

    try:
        return rate(count, work)
    finally:
        db.dispose()


def _filings(tmp: str, count: int) -> float:
    db = open_database(f"sqlite:///{tmp}/disputes.db")
    clock = SystemClock()
    signer = Ed25519Signer.from_seed(SEED)
    ledger = Ledger(db, signer, clock)
    precedents = Precedents(PrecedentStore(db, clock), PrecedentSearch(db), signer)
    disputes = Disputes(ledger, clock, precedents=precedents)
    filings = [filing(i) for i in range(count)]

    def work() -> None:
        for b in range(0, count, BATCH):
            disputes.open_many(filings[b : b + BATCH])

    try:
        return rate(count, work)
    finally:
        db.dispose()


def run(quick: bool) -> list[Result]:
    count = 2_000 if quick else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        ledger_rate = _ledger_baseline(tmp, count)
        filing_rate = _filings(tmp, count)
    ratio = filing_rate / ledger_rate
    return [
        Result(
            f"bare ledger append, batches of {BATCH} (SQLite)",
            ledger_rate,
            "entries/s",
            notes="baseline, same run",
        ),
        Result(
            f"file a dispute with 2 evidence items, batches of {BATCH} (SQLite)",
            filing_rate,
            "disputes/s",
            baseline="bare ledger append",
            ratio=ratio,
            target=f">= {TARGET:,.0f}/s",
            passed=filing_rate >= TARGET,
            notes="signed §4 record + ledger entry + rows + evidence + deadline, R24/R34 checks",
        ),
    ]
