"""The dashboard's figures over a real day of cases (the demo's scenarios)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from accord.api.queries.dashboard_stats import MAX_DAYS, dashboard_stats
from accord.app import Accord
from accord.cli.demo import run_day
from accord.clock import FrozenClock
from accord.errors import ValidationError
from tests.api._reviewers import register_reviewers, reviewer_config
from tests.api.conftest import REFUND


@pytest.fixture
def day(database_url: str, tmp_path: Path, frozen_clock: FrozenClock) -> Iterator[Accord]:
    config = tmp_path / "config"
    config.mkdir()
    accord = Accord.open(
        reviewer_config(config), db_url=database_url, keys_dir=tmp_path / "k", clock=frozen_clock
    )
    register_reviewers(accord)
    run_day(accord)
    yield accord
    accord.close()


def test_the_figures_count_cases_by_kind_and_tier_and_the_share_that_reached_people(
    day: Accord,
) -> None:
    stats = dashboard_stats(day.db, day.clock.now())
    total = day.cases.total()
    assert sum(c.count for c in stats.by_kind) == total
    assert sum(c.count for c in stats.by_tier) == total
    assert {c.day for c in stats.by_kind} == {day.clock.now().date().isoformat()}
    [rate] = stats.escalation
    reached = sum(c.count for c in stats.by_tier if c.group == "human_appeal")
    assert (rate.cases, rate.escalated) == (total, reached)
    assert 0 < rate.rate < 1


def test_tokens_per_case_and_each_agents_wins_come_from_the_stores(day: Accord) -> None:
    stats = dashboard_stats(day.db, day.clock.now())
    debated = [c for c in day.cases.iter_documents() if c.tokens_in]
    assert debated, "the demo's debate used the scripted model"
    by_case = {t.case_id: t.tokens for t in stats.tokens}
    assert by_case[debated[0].case_id] == debated[0].tokens_in + debated[0].tokens_out
    audit = next(a for a in stats.agents if a.agent_id == "agent:audit")
    assert audit.won >= 1  # the treasurer chose reject
    assert 0 <= audit.win_rate <= 1


def test_queue_age_buckets_pending_items_by_how_long_they_waited(
    day: Accord, frozen_clock: FrozenClock
) -> None:
    day.settle("Refund 1 to customer 1", REFUND, task_type="refunds")
    frozen_clock.advance(timedelta(hours=2))
    day.settle("Refund 2 to customer 2", REFUND, task_type="refunds")
    stats = dashboard_stats(day.db, day.clock.now())
    assert dict(stats.queue_age) == {"under 1 h": 1, "1–4 h": 1, "4–24 h": 0, "over 1 day": 0}


def test_the_period_is_bounded(day: Accord) -> None:
    with pytest.raises(ValidationError) as refused:
        dashboard_stats(day.db, day.clock.now(), days=MAX_DAYS + 1)
    assert refused.value.context["field"] == "days"
    later = day.clock.now() + timedelta(days=10)
    assert dashboard_stats(day.db, later, days=7).by_kind == ()
