"""The in-process deadline sweeper: at startup, periodically, and stopped on shutdown."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from litestar.testing import TestClient
from sqlalchemy import text

from accord.api import create_app
from accord.api.sweeper import Sweeper
from accord.app import Accord
from accord.cases import Case
from accord.clock import FrozenClock


def test_the_server_sweeps_deadlines_that_passed_while_it_was_down(
    accord: Accord, escalated: Case, frozen_clock: FrozenClock
) -> None:
    assert escalated.approval_item_id is not None
    frozen_clock.advance(timedelta(hours=5))  # the high-risk deadline is 4 hours
    with TestClient(create_app(accord, sweep_every=3600)):
        item = accord.approvals.get(escalated.approval_item_id)
    assert item.status.value == "expired"


def test_a_sweep_before_any_deadline_changes_nothing(accord: Accord, escalated: Case) -> None:
    sweeper = Sweeper(accord, interval=60)
    assert asyncio.run(sweeper.sweep_once()) == 0
    assert escalated.approval_item_id is not None
    assert accord.approvals.get(escalated.approval_item_id).is_pending


def test_stopping_ends_the_loop_without_waiting_for_the_interval(accord: Accord) -> None:
    async def start_and_stop() -> int:
        sweeper = Sweeper(accord, interval=3600)
        await sweeper.start()
        await asyncio.wait_for(sweeper.stop(), timeout=30)
        return sweeper.sweeps

    assert asyncio.run(start_and_stop()) == 1


def test_a_failing_sweep_is_logged_and_the_loop_survives(
    accord: Accord, caplog: pytest.LogCaptureFixture
) -> None:
    with accord.db.write() as conn:  # a database the sweep cannot read
        conn.execute(text("DROP TABLE deadlines"))
    broken = Sweeper(accord, interval=60)
    assert asyncio.run(broken.sweep_once()) == 0
    assert broken.sweeps == 1
    assert "sweeper.failed" in caplog.text


def test_the_interval_must_be_positive(accord: Accord) -> None:
    with pytest.raises(ValueError, match="positive"):
        Sweeper(accord, interval=0)
