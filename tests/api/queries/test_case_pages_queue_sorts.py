"""The approval queue's reads: tier and party-set filters, and each sort paged by cursor."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from accord.api.queries.case_pages import MAX_PARTY_SET, QueueFilter, queue_page
from accord.app import Accord
from accord.clock import FrozenClock
from accord.errors import ValidationError
from tests.api._reviewers import reviewer_config
from tests.api.conftest import REFUND


@pytest.fixture
def queued(database_url: str, tmp_path: Path, frozen_clock: FrozenClock) -> Iterator[Accord]:
    config = tmp_path / "config"
    config.mkdir()
    accord = Accord.open(
        reviewer_config(config), db_url=database_url, keys_dir=tmp_path / "k", clock=frozen_clock
    )
    for n in range(5):
        frozen_clock.advance(timedelta(minutes=1))
        accord.settle(f"Refund {n}", REFUND, task_type="refunds")
    yield accord
    accord.close()


def _walk(accord: Accord, filters: QueueFilter) -> list[str]:
    seen: list[str] = []
    cursor = None
    while True:
        page = queue_page(accord.db, filters, limit=2, cursor=cursor)
        seen += [e.item.item_id for e in page.rows]
        if page.next_cursor is None:
            return seen
        cursor = page.next_cursor


def test_each_sort_pages_through_every_item_once_in_its_order(queued: Accord) -> None:
    oldest = _walk(queued, QueueFilter())
    assert len(oldest) == len(set(oldest)) == 5
    created = [queued.approvals.get(i).created_at for i in oldest]
    assert created == sorted(created)
    assert _walk(queued, QueueFilter(sort="newest")) == list(reversed(oldest))
    by_deadline = _walk(queued, QueueFilter(sort="deadline"))
    deadlines = [queued.approvals.get(i).deadline for i in by_deadline]
    assert all(d is not None for d in deadlines)
    assert deadlines == sorted(deadlines)  # type: ignore[type-var]


def test_the_tier_and_party_set_filters_narrow_the_queue(queued: Accord) -> None:
    assert len(_walk(queued, QueueFilter(tier="human_appeal"))) == 5
    assert _walk(queued, QueueFilter(tier="direct_negotiation")) == []
    assert len(_walk(queued, QueueFilter(party_in=("agent:audit", "agent:nobody")))) == 5
    assert _walk(queued, QueueFilter(party_in=("agent:nobody",))) == []
    assert _walk(queued, QueueFilter(party_in=())) == []


def test_an_unknown_sort_or_too_large_a_party_set_is_refused(queued: Accord) -> None:
    with pytest.raises(ValidationError) as sort:
        queue_page(queued.db, QueueFilter(sort="loudest"))
    assert sort.value.context["field"] == "sort"
    too_many = tuple(f"agent:{n}" for n in range(MAX_PARTY_SET + 1))
    with pytest.raises(ValidationError) as parties:
        queue_page(queued.db, QueueFilter(party_in=too_many))
    assert parties.value.context["field"] == "party_in"
