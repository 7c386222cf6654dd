"""Concurrent decisions share one transaction (group commit), each in its own savepoint: a
refused one fails only its own caller, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from sqlalchemy import event

from accord.approvals import AlreadyDecided, ApprovalItem, ApprovalQueue, ApprovalStatus
from accord.store import Database
from tests.approvals.conftest import EventLog, ask, reviewer


def _decide_in_threads(
    queue: ApprovalQueue, db: Database, decisions: list[tuple[str, str]]
) -> tuple[list[ApprovalItem | Exception], int]:
    """Each (item id, principal) decided in a thread of its own while the writer lock is
    held, so they queue behind one another; their outcomes, and the commits they took."""
    outcomes: list[ApprovalItem | Exception] = [ValueError("not run")] * len(decisions)
    commits: list[int] = []

    def decide(index: int, item_id: str, principal: str) -> None:
        try:
            outcomes[index] = queue.decide(
                item_id, reviewer(principal, "reviewer"), outcome="approved", choice="approve"
            )
        except Exception as exc:  # the outcome under test
            outcomes[index] = exc

    threads = [
        threading.Thread(target=decide, args=(i, item_id, who))
        for i, (item_id, who) in enumerate(decisions)
    ]
    with db.write():  # every decision waits here until all have been submitted
        for thread in threads:
            thread.start()
        while queue.decisions.queued < len(decisions) - 1:  # at most one took a batch alone
            threading.Event().wait(0.001)

        def counted(_: Any) -> None:
            commits.append(1)

        event.listen(db.engine, "commit", counted)  # from this held write's own commit on
    for thread in threads:
        thread.join(timeout=30)
    event.remove(db.engine, "commit", counted)
    return outcomes, len(commits) - 1  # less the held write's


def test_concurrent_decisions_share_a_transaction_and_a_refused_one_fails_alone(
    queue: ApprovalQueue, db: Database, event_log: EventLog
) -> None:
    first, second = ask(queue, case_id="case:1"), ask(queue, case_id="case:2")
    outcomes, commits = _decide_in_threads(
        queue,
        db,
        [
            (first.item_id, "user:alice"),
            (first.item_id, "user:bob"),
            (second.item_id, "user:carol"),
        ],
    )
    assert commits <= 2  # three decisions, at most two transactions
    won = [o for o in outcomes[:2] if isinstance(o, ApprovalItem)]
    refused = [o for o in outcomes[:2] if isinstance(o, AlreadyDecided)]
    assert len(won) == 1  # compare-and-set: exactly one decision wins
    assert len(refused) == 1
    assert won[0].decision is not None
    assert refused[0].context["decided_by"] == won[0].decision.decided_by
    assert isinstance(outcomes[2], ApprovalItem)
    assert queue.get(first.item_id) == won[0]
    assert queue.get(second.item_id).status is ApprovalStatus.APPROVED
    assert len(event_log.records("approval_decided")) == 2  # nothing of the refused one


def test_a_decision_alone_is_its_own_transaction(queue: ApprovalQueue) -> None:
    item = ask(queue)
    queue.decisions.max_batch = 1
    decided = queue.decide(item.item_id, reviewer("user:alice", "reviewer"), outcome="denied")
    assert decided.status is ApprovalStatus.DENIED
    assert queue.get(item.item_id) == decided


def test_decisions_of_one_event_loop_turn_share_one_transaction_and_a_refused_one_fails_alone(
    queue: ApprovalQueue, db: Database, event_log: EventLog
) -> None:
    first, second = ask(queue, case_id="case:1"), ask(queue, case_id="case:2")
    commits: list[int] = []

    def counted(_: Any) -> None:
        commits.append(1)

    async def decide_all() -> list[ApprovalItem | BaseException]:
        calls = [
            queue.decide_async(
                item_id, reviewer(who, "reviewer"), outcome="approved", choice="approve"
            )
            for item_id, who in (
                (first.item_id, "user:alice"),
                (first.item_id, "user:bob"),
                (second.item_id, "user:carol"),
            )
        ]
        return await asyncio.gather(*calls, return_exceptions=True)

    event.listen(db.engine, "commit", counted)
    try:
        alice, bob, carol = asyncio.run(decide_all())
    finally:
        event.remove(db.engine, "commit", counted)
    assert len(commits) == 1  # three decisions, one transaction
    assert isinstance(alice, ApprovalItem)  # the first in the batch wins the item
    assert isinstance(bob, AlreadyDecided)
    assert alice.decision is not None
    assert bob.context["decided_by"] == alice.decision.decided_by
    assert isinstance(carol, ApprovalItem)
    assert queue.get(second.item_id).status is ApprovalStatus.APPROVED
    assert len(event_log.records("approval_decided")) == 2  # nothing of the refused one
