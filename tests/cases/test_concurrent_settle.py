"""Many threads settling at once: every case is recorded once, with its own ledger entries,
and the chain still verifies (concurrent callers share transactions through group commit)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from accord.cases import Case, CaseStore, Settler, SettleRequest, SettleStatus
from accord.ledger import Ledger, TrustRoot
from accord.store import Database

from ._builders import pos as p
from ._builders import request, row_counts


def _requests(n: int) -> list[SettleRequest]:
    return [
        request(p("a", 100 + i, 0.9), p("b", 300 + i, 0.2), p("c", 100 + i, 0.5)) for i in range(n)
    ]


def test_threads_settling_at_once_record_every_case_exactly_once(
    settler: Settler, store: CaseStore, ledger: Ledger, db: Database, trusted: TrustRoot
) -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        cases = list(pool.map(settler.settle, _requests(60)))

    assert all(c.status is SettleStatus.SETTLED for c in cases)
    assert len({c.case_id for c in cases}) == 60
    seqs = [s for c in cases for s in c.ledger_seqs]
    assert sorted(seqs) == list(range(1, 121))
    assert row_counts(db) == {
        "cases": 60,
        "case_parties": 180,
        "dissents": 60,
        "ledger_entries": 120,
    }
    for case in cases:
        assert store.get(case.case_id) == case
        assert [ledger.get(s).record["dispute_id"] for s in case.ledger_seqs] == [case.case_id] * 2
    assert ledger.verify(trusted).entries == 120


def test_concurrent_settle_async_calls_are_all_recorded(
    settler: Settler, db: Database, trusted: TrustRoot, ledger: Ledger
) -> None:
    async def fan_out() -> list[Case]:
        return await asyncio.gather(*(settler.settle_async(r) for r in _requests(30)))

    cases = asyncio.run(fan_out())
    assert len({c.case_id for c in cases}) == 30
    assert sorted(s for c in cases for s in c.ledger_seqs) == list(range(1, 61))
    assert row_counts(db)["cases"] == 30
    assert ledger.verify(trusted).entries == 60
