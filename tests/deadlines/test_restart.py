"""Deadlines survive their process: a new store instance fires rows an earlier one armed."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import timedelta

from accord.clock import FrozenClock
from accord.deadlines import DeadlineState, DeadlineSweep, arm, history
from accord.store import open_database
from tests.deadlines.conftest import KIND, Recorder


def test_a_new_store_instance_fires_deadlines_an_earlier_one_armed(
    database_url: str, frozen_clock: FrozenClock
) -> None:
    first = open_database(database_url)
    now = frozen_clock.now()
    with first.write() as conn:
        armed = arm(conn, kind=KIND, subject_id="s:1", due_at=now + timedelta(hours=1), now=now)
    first.dispose()  # the process that armed it is gone

    frozen_clock.advance(timedelta(hours=1))
    second = open_database(database_url)
    recorder = Recorder()
    try:
        [fired] = DeadlineSweep(second, frozen_clock, {KIND: recorder}).run().fired
        assert fired.deadline.deadline_id == armed.deadline_id
    finally:
        second.dispose()


def test_a_deadline_armed_by_another_process_fires_here(
    database_url: str, frozen_clock: FrozenClock
) -> None:
    open_database(database_url).dispose()  # migrate before the child runs
    due = frozen_clock.now() + timedelta(minutes=15)
    child = textwrap.dedent(
        f"""
        from datetime import datetime
        from accord.deadlines import arm
        from accord.store import open_database
        db = open_database({database_url!r})
        due = datetime.fromisoformat({due.isoformat()!r})
        with db.write() as conn:
            arm(conn, kind={KIND!r}, subject_id="s:child", due_at=due, now=due)
        db.dispose()
        """
    )
    subprocess.run([sys.executable, "-c", child], check=True, timeout=120)
    frozen_clock.advance(timedelta(minutes=15))
    db = open_database(database_url)
    try:
        recorder = Recorder()
        report = DeadlineSweep(db, frozen_clock, {KIND: recorder}).run()
        assert [f.deadline.subject_id for f in report.fired] == ["s:child"]
        with db.read() as conn:
            [row] = history(conn, KIND, "s:child")
        assert row.state is DeadlineState.FIRED
    finally:
        db.dispose()
