"""Two servers on one database, two reviewers deciding the same items at the same moment:
each item gets exactly one decision (the other reviewer 409), one signed decision entry, and
the ledger verifies afterwards (no forked chain). Each app opens its own ``Accord`` (its own
engine, pool and in-process writer lock), so they meet only at the database, as two
``accord serve`` processes do."""

from __future__ import annotations

import faulthandler
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from litestar.testing import TestClient
from sqlalchemy import func, select

from accord.api import ApiKeyStore, create_app
from accord.app import Accord
from accord.clock import FrozenClock
from accord.store.tables import ledger_entries

from ._reviewers import reviewer_config
from .conftest import REFUND

ITEMS = 6


@pytest.fixture
def second_server(
    accord: Accord, database_url: str, tmp_path: Path, frozen_clock: FrozenClock
) -> Iterator[Accord]:
    other_dir = tmp_path / "other-config"
    other_dir.mkdir()
    opened = Accord.open(
        reviewer_config(other_dir),
        db_url=database_url,
        keys_dir=tmp_path / "keys",
        clock=frozen_clock,
    )
    yield opened
    opened.close()


def test_racing_reviewers_on_two_servers_decide_each_item_exactly_once(
    accord: Accord, second_server: Accord, keys: ApiKeyStore
) -> None:
    items = []
    for i in range(ITEMS):
        case = accord.settle(f"Refund {i} to customer 5521", REFUND, task_type="refunds")
        assert case.approval_item_id is not None
        items.append(case.approval_item_id)
    racers = [
        (accord, keys.create("reviewer", principal_id="human:treasurer")[1], "reject"),
        (second_server, keys.create("reviewer", principal_id="human:deputy")[1], "approve"),
    ]
    start = threading.Barrier(len(racers))

    def race(server: Accord, token: str, choice: str) -> list[int]:
        statuses = []
        with TestClient(create_app(server, sweep_every=None)) as client:
            for item in items:
                start.wait(timeout=120)  # both reviewers send this item's decision together
                answer = client.post(
                    f"/api/v1/approvals/{item}/decision",
                    json={"choice": choice, "reasoning": "race"},
                    headers={"Authorization": f"Bearer {token}"},
                )
                statuses.append(answer.status_code)
        return statuses

    # A decision here takes milliseconds; one CI run once saw a stall of over 30 s that no
    # local run reproduced. Should it recur, every thread's stack is written to stderr.
    faulthandler.dump_traceback_later(60)
    try:
        with ThreadPoolExecutor(len(racers)) as pool:
            outcomes = list(pool.map(lambda racer: race(*racer), racers))
    finally:
        faulthandler.cancel_dump_traceback_later()
    per_item = [sorted(pair) for pair in zip(*outcomes, strict=True)]
    assert per_item == [[200, 409]] * ITEMS
    assert all(not accord.approvals.get(item).is_pending for item in items)
    with accord.db.read() as conn:
        decided = conn.execute(
            select(func.count())
            .select_from(ledger_entries)
            .where(ledger_entries.c.event_type == "approval_decided")
        ).scalar_one()
    assert decided == ITEMS
    assert accord.verify().entries > 0
