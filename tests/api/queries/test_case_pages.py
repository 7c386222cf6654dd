"""Paged reads for the service: a page costs its rows, not the queue (issue 13), its bounds are
checked, and walking the cursors visits every item exactly once, in order."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Select
from sqlalchemy.dialects import sqlite

from accord.api.queries.case_pages import (
    MAX_PAGE,
    CaseFilter,
    QueueFilter,
    case_query,
    queue_page,
    queue_query,
)
from accord.approvals import ApprovalQueue, WaitForever
from accord.clock import FrozenClock
from accord.errors import ValidationError
from accord.store import Database, open_database


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    opened = open_database(database_url)
    yield opened
    opened.dispose()


def _queue(db: Database, clock: FrozenClock, n: int) -> list[str]:
    queue = ApprovalQueue(db, clock)
    return [
        queue.request(
            case_id=f"case:{i}",
            title=f"Refund {i}",
            summary="billing approves, audit rejects",
            positions=[
                {"agent": "agent:billing", "answer": "approve", "confidence": 0.7},
                {"agent": "agent:audit", "answer": "reject", "confidence": 0.6},
            ],
            analysis="tier 1: no rung decided",
            options=["approve", "reject"],
            risk="medium",
            policy=WaitForever(),
        ).item_id
        for i in range(n)
    ]


def _plan(tmp_path: Path, query: Select[object]) -> str:
    """SQLite's query plan for ``query`` on a migrated database."""
    db = open_database(f"sqlite:///{tmp_path / 'plan.db'}")
    try:
        sql = str(query.compile(dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True}))
        with db.read() as conn:
            rows = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}").all()
        return " | ".join(str(row[-1]) for row in rows)
    finally:
        db.dispose()


def test_the_queue_page_is_read_from_the_status_index_in_page_order(tmp_path: Path) -> None:
    plan = _plan(tmp_path, queue_query(QueueFilter(), limit=50, cursor=None))
    assert "ix_approval_items_status_page" in plan
    assert "TEMP B-TREE" not in plan  # no sort of every pending item to show 50


def test_a_deep_queue_page_is_read_from_the_status_index_in_page_order(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    db = open_database(database_url)
    try:
        _queue(db, frozen_clock, 3)
        cursor = queue_page(db, QueueFilter(), limit=1).next_cursor
    finally:
        db.dispose()
    plan = _plan(tmp_path, queue_query(QueueFilter(), limit=50, cursor=cursor))
    assert "ix_approval_items_status_page" in plan
    assert "TEMP B-TREE" not in plan


def test_the_case_list_by_status_is_read_from_its_index_in_page_order(tmp_path: Path) -> None:
    plan = _plan(tmp_path, case_query(CaseFilter(status="escalated"), limit=50, cursor=None))
    assert "ix_cases_status_page" in plan
    assert "TEMP B-TREE" not in plan


@pytest.mark.parametrize("limit", [0, MAX_PAGE + 1])
def test_a_page_size_outside_its_bounds_is_refused(limit: int) -> None:
    with pytest.raises(ValidationError) as refused:
        queue_query(QueueFilter(), limit=limit, cursor=None)
    assert refused.value.code == "paging.bad_limit"
    assert refused.value.context["field"] == "limit"


def test_walking_the_cursors_visits_every_pending_item_once_in_order(
    db: Database, frozen_clock: FrozenClock
) -> None:
    made = _queue(db, frozen_clock, 7)  # one frozen instant: the item id breaks the ties
    seen: list[str] = []
    cursor = None
    while True:
        page = queue_page(db, QueueFilter(), limit=3, cursor=cursor)
        assert len(page.rows) <= 3
        seen += [entry.item.item_id for entry in page.rows]
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    assert seen == sorted(made)
