"""`accord sweep`: every due deadline fired once, shown in a table that never cuts an id."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import delete

from accord.app import Accord
from accord.cases import SettleRequest
from accord.cli.sweep_command import watch_sweeps
from accord.clock import FrozenClock
from accord.deadlines import SweepReport
from accord.errors import AccordError
from accord.store.tables import deadlines

from .conftest import Run

DB = "sqlite:///sweep.db"
CONFIG = """\
conflict_resolution: {strategy: human}
approvals:
  timeout_policy: {kind: deny, timeout_minutes: 1}
  principals:
    "human:alice": [reviewer]
"""
POSITIONS = [
    {"agent": "agent:support", "output": "approve", "reasoning": "loyal customer"},
    {"agent": "agent:risk", "output": "reject", "reasoning": "fraud flags"},
]


@pytest.fixture
def overdue(run: Run) -> list[str]:
    """Two queued cases whose approval deadlines passed long ago; their item ids."""
    Path("accord.yaml").write_text(CONFIG)
    past = FrozenClock(datetime(2020, 1, 1, tzinfo=UTC))
    accord = Accord.open("accord.yaml", db_url=DB, keys_dir="keys", clock=past)
    try:
        requests = [SettleRequest(f"refund {i}", POSITIONS, "default", None) for i in range(2)]
        return [str(c.approval_item_id) for c in accord.settle_many(requests)]
    finally:
        accord.close()


def test_sweep_fires_each_due_deadline_once_and_prints_whole_ids(
    run: Run, overdue: list[str]
) -> None:
    swept = run("sweep", "--db", DB, "--keys", "keys")
    assert swept.exit_code == 0, swept.output
    assert "2 deadline(s) fired: 2 expired" in swept.output
    assert "…" not in swept.output
    for item_id in overdue:
        assert item_id in swept.output
    again = run("sweep", "--json", "--db", DB, "--keys", "keys")
    assert json.loads(again.stdout) == []


def test_sweep_json_names_each_fired_deadline_its_subject_and_outcome(
    run: Run, overdue: list[str]
) -> None:
    swept = run("sweep", "--json", "--db", DB, "--keys", "keys")
    assert swept.exit_code == 0, swept.output
    rows = json.loads(swept.stdout)
    assert sorted(r["subject_id"] for r in rows) == sorted(overdue)
    assert {(r["kind"], r["state"], r["outcome"], r["next"]) for r in rows} == {
        ("approval_timeout", "fired", "expired", None)
    }
    items = json.loads(run("approvals", "list", "--json", "--status", "expired", "--db", DB,
                           "--keys", "keys").stdout)  # fmt: skip
    assert sorted(i["item_id"] for i in items) == sorted(overdue)


class _Scripted:
    """A sweeper whose runs are scripted: a report, or an error to raise."""

    def __init__(self, *runs: SweepReport | AccordError) -> None:
        self.runs = list(runs)

    def run(self) -> SweepReport:
        outcome = self.runs.pop(0)
        if isinstance(outcome, AccordError):
            raise outcome
        return outcome


def test_watch_sweeps_every_interval_for_the_rounds_asked_without_sleeping() -> None:
    waits: list[float] = []
    shown: list[SweepReport] = []
    sweeper = _Scripted(SweepReport(), SweepReport(), SweepReport())
    done = watch_sweeps(sweeper, 2.5, shown.append, wait=waits.append, rounds=3)  # type: ignore[arg-type]
    assert (done, waits, len(shown)) == (3, [2.5, 2.5], 3)


def test_watch_reports_a_failing_sweep_and_keeps_going_until_interrupted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def interrupt_on_second_wait(seconds: float, calls: list[float] = []) -> None:  # noqa: B006
        calls.append(seconds)
        if len(calls) == 2:
            raise KeyboardInterrupt

    sweeper = _Scripted(AccordError("database away", code="store.write_failed"), SweepReport())
    shown: list[SweepReport] = []
    done = watch_sweeps(sweeper, 1.0, shown.append, wait=interrupt_on_second_wait)  # type: ignore[arg-type]
    assert (done, len(shown)) == (2, 1)
    assert "store.write_failed" in capsys.readouterr().err


WAITING = """\
conflict_resolution: {strategy: human}
approvals:
  principals:
    "human:alice": [reviewer]
"""


def test_sweep_abandons_a_settle_case_at_its_human_appeal_deadline_and_case_shows_it(
    run: Run,
) -> None:
    Path("accord.yaml").write_text(WAITING)
    past = FrozenClock(datetime(2020, 1, 1, tzinfo=UTC))
    accord = Accord.open("accord.yaml", db_url=DB, keys_dir="keys", clock=past)
    try:
        case_id = accord.settle("refund 7", POSITIONS).case_id
    finally:
        accord.close()
    shown = json.loads(run("case", case_id, "--db", DB, "--keys", "keys").stdout)
    assert shown["dcp_status"] == "appealing"
    assert shown["escalation_deadline"] == "2020-01-01T01:00:00Z"  # R3: high, 1 h
    swept = run("sweep", "--json", "--db", DB, "--keys", "keys")
    assert swept.exit_code == 0, swept.output
    assert [(f["kind"], f["outcome"]) for f in json.loads(swept.stdout)] == [
        ("case_tier", "abandoned")
    ]
    ended = json.loads(run("case", case_id, "--db", DB, "--keys", "keys").stdout)
    assert (ended["dcp_status"], ended["escalation_deadline"]) == ("abandoned", None)
    assert run("verify", "--db", DB, "--keys", "keys").exit_code == 0


def test_sweep_adopt_undated_arms_an_old_cases_deadline_then_fires_it_in_the_same_run(
    run: Run,
) -> None:
    Path("accord.yaml").write_text(WAITING)
    past = FrozenClock(datetime(2020, 1, 1, tzinfo=UTC))
    accord = Accord.open("accord.yaml", db_url=DB, keys_dir="keys", clock=past)
    try:
        case_id = accord.settle("refund 8", POSITIONS).case_id
        with accord.db.write() as conn:  # as an older version left it: no tier deadline
            conn.execute(delete(deadlines).where(deadlines.c.subject_id == case_id))
    finally:
        accord.close()
    assert json.loads(run("sweep", "--json", "--db", DB, "--keys", "keys").stdout) == []

    swept = run("sweep", "--adopt-undated", "--db", DB, "--keys", "keys")

    assert swept.exit_code == 0, swept.output
    assert "1 undated case(s) given a tier deadline" in swept.output
    assert "1 deadline(s) fired: 1 abandoned" in swept.output
    again = run("sweep", "--adopt-undated", "--json", "--db", DB, "--keys", "keys")
    assert json.loads(again.stdout) == []
    assert run("verify", "--db", DB, "--keys", "keys").exit_code == 0
