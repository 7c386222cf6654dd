"""Two sweepers on two connection pools, racing in threads, never apply a deadline twice."""

from __future__ import annotations

import threading
from datetime import timedelta

from accord.approvals import ApprovalItem, ApprovalQueue, DenyAfter, EscalationChain, EscalationStep
from accord.clock import FrozenClock
from accord.store import open_database
from tests.approvals.conftest import EventLog, ask

ITEMS = 40


def test_concurrent_sweepers_never_double_apply(
    database_url: str, frozen_clock: FrozenClock
) -> None:
    """On PostgreSQL the claim is ``FOR UPDATE SKIP LOCKED``; on SQLite ``BEGIN IMMEDIATE``."""
    databases = [open_database(database_url) for _ in range(2)]
    logs = [EventLog(), EventLog()]
    queues = [
        ApprovalQueue(d, frozen_clock, on_event=log) for d, log in zip(databases, logs, strict=True)
    ]
    chain = EscalationChain(
        steps=(EscalationStep(role="lead", timeout_minutes=5),), on_chain_exhausted="deny"
    )
    try:
        for n in range(ITEMS):
            ask(queues[0], policy=DenyAfter(timeout_minutes=5) if n % 2 else chain)
        frozen_clock.advance(timedelta(minutes=5))
        start = threading.Barrier(2)
        swept: list[list[ApprovalItem]] = [[], []]

        def sweep_until_empty(index: int) -> None:
            start.wait()
            while batch := queues[index].sweep(limit=3):
                swept[index].extend(batch)

        threads = [threading.Thread(target=sweep_until_empty, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)

        all_swept = [item.item_id for batch in swept for item in batch]
        assert len(all_swept) == len(set(all_swept)) == ITEMS
        expired = [r["item_id"] for log in logs for r in log.records("approval_expired")]
        assert sorted(expired) == sorted(all_swept)
        assert all(i.version == 2 for i in queues[1].list(status="expired"))
        assert queues[1].pending() == []
    finally:
        for database in databases:
            database.dispose()
