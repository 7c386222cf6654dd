"""``Accord.collecting``: each party submits its own position; the last one settles the case
through ``settle`` (its signed records), the deadline settles on what arrived or abandons."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from accord import Accord, Position, SettleStatus
from accord.app.deadline_sweep import deadline_sweep
from accord.cases.collecting import (
    COLLECTING_DEADLINE,
    MAX_COLLECT_FOR,
    CollectingCase,
    CollectingStatus,
)
from accord.clock import FrozenClock
from accord.deadlines import DeadlineSweep
from accord.errors import AccordError, IllegalTransition, NotFound, ValidationError
from accord.limits import LimitExceeded
from accord.store.tables import deadlines

PARTIES = ["agent:billing", "agent:audit", "agent:ops"]
HOUR = timedelta(hours=1)


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    instance = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    yield instance
    instance.close()


@pytest.fixture
def sweep(accord: Accord) -> DeadlineSweep:
    return deadline_sweep(accord.db, accord.clock, accord.approvals, collecting=accord.collecting)


def _open(accord: Accord, parties: list[str] = PARTIES) -> CollectingCase:
    return accord.collecting.open(
        "Total of invoice 4411",
        parties,
        within=HOUR,
        opened_by="agent:billing",
        task_type="invoicing",
    )


def _deadline_states(accord: Accord, collecting_id: str) -> list[str]:
    with accord.db.read() as conn:
        rows = conn.execute(
            deadlines.select().where(deadlines.c.subject_id == collecting_id)
        ).mappings()
        return [r["state"] for r in rows if r["kind"] == COLLECTING_DEADLINE]


def test_a_case_waits_until_every_party_submitted_then_settles_once(accord: Accord) -> None:
    opened = _open(accord)
    assert opened.status is CollectingStatus.COLLECTING
    assert opened.missing == tuple(PARTIES)
    after_one = accord.collecting.submit(
        opened.collecting_id, {"output": 1200, "confidence": 0.9}, by="agent:billing"
    )
    assert after_one.submitted == ("agent:billing",)
    assert after_one.case_id is None
    accord.collecting.submit(
        opened.collecting_id, {"output": 1450, "confidence": 0.6}, by="agent:audit"
    )
    last = accord.collecting.submit(
        opened.collecting_id,
        Position(agent="agent:ops", output=1200, confidence=0.8),
        by="agent:ops",
    )
    assert last.status is CollectingStatus.SETTLED
    assert last.closed_reason == "all_positions_in"
    assert last.case_id is not None
    case = accord.cases.get(last.case_id)
    assert case.status is SettleStatus.SETTLED
    assert [p.agent for p in case.positions] == PARTIES  # in the order the parties were named
    assert case.subject == "Total of invoice 4411"
    assert _deadline_states(accord, opened.collecting_id) == ["cancelled"]
    assert accord.verify(workers=1).cases == 1  # the settled case is signed and audited


def test_a_second_submission_by_the_same_party_is_refused(accord: Accord) -> None:
    opened = _open(accord)
    accord.collecting.submit(opened.collecting_id, {"output": 1}, by="agent:audit")
    with pytest.raises(AccordError) as refused:
        accord.collecting.submit(opened.collecting_id, {"output": 2}, by="agent:audit")
    assert refused.value.code == "collecting.already_submitted"
    assert accord.collecting.get(opened.collecting_id).submitted == ("agent:audit",)


def test_an_agent_that_is_not_a_party_is_refused(accord: Accord) -> None:
    opened = _open(accord)
    with pytest.raises(AccordError) as refused:
        accord.collecting.submit(opened.collecting_id, {"output": 1}, by="agent:intruder")
    assert refused.value.code == "collecting.not_a_party"
    assert accord.collecting.get(opened.collecting_id).submitted == ()


def test_a_party_cannot_submit_a_position_in_another_agents_name(accord: Accord) -> None:
    opened = _open(accord)
    with pytest.raises(AccordError) as refused:
        accord.collecting.submit(
            opened.collecting_id, {"agent": "agent:audit", "output": 1}, by="agent:billing"
        )
    assert refused.value.code == "collecting.not_own_position"
    assert refused.value.context["field"] == "position.agent"


def test_a_bad_position_is_refused_naming_its_field_and_nothing_is_stored(
    accord: Accord,
) -> None:
    opened = _open(accord)
    with pytest.raises(ValidationError) as refused:
        accord.collecting.submit(
            opened.collecting_id, {"output": 1, "confidence": 3}, by="agent:billing"
        )
    assert str(refused.value.context["field"]).startswith("position")
    assert "confidence" in str(refused.value.context["field"])
    assert accord.collecting.get(opened.collecting_id).submitted == ()


def test_an_output_above_the_limit_is_refused_naming_the_position_output(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock
) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text("limits:\n  output_bytes: 64\n", encoding="utf-8")
    with_limit = Accord.open(
        config, db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock
    )
    try:
        opened = _open(with_limit)
        with pytest.raises(LimitExceeded) as refused:
            with_limit.collecting.submit(
                opened.collecting_id, {"output": "x" * 200}, by="agent:ops"
            )
        assert refused.value.context["field"] == "position.output"
    finally:
        with_limit.close()


@pytest.mark.parametrize(
    ("parties", "field"),
    [
        (["agent:billing"], "parties"),
        (["agent:billing", "agent:billing"], "parties"),
        (["agent:billing", ""], "parties[1]"),
        (["agent:billing", "agent:\u202eaudit"], "parties[1]"),
        ("agent:billing", "parties"),
    ],
)
def test_parties_are_two_or_more_distinct_printable_agents(
    accord: Accord, parties: list[str], field: str
) -> None:
    with pytest.raises(ValidationError) as refused:
        accord.collecting.open("s", parties, within=HOUR, opened_by="admin")
    assert refused.value.context["field"] == field


@pytest.mark.parametrize(
    "within",
    [timedelta(0), MAX_COLLECT_FOR + timedelta(seconds=1), 0.5, float("nan"), True, "600", 1e300],
)
def test_the_collection_window_is_bounded(accord: Accord, within: object) -> None:
    with pytest.raises(ValidationError) as refused:
        accord.collecting.open("s", PARTIES, within=within, opened_by="admin")  # type: ignore[arg-type]
    assert refused.value.context["field"] == "within"
    assert accord.collecting.list() == []


def test_a_subject_is_checked_as_settle_checks_it(accord: Accord) -> None:
    with pytest.raises(ValidationError) as refused:
        accord.collecting.open("x" * 481, PARTIES, within=HOUR, opened_by="admin")
    assert refused.value.context["field"] == "subject"


def test_the_deadline_settles_on_what_arrived_when_two_positions_are_in(
    accord: Accord, sweep: DeadlineSweep, frozen_clock: FrozenClock
) -> None:
    opened = _open(accord)
    accord.collecting.submit(
        opened.collecting_id, {"output": 1200, "confidence": 0.9}, by="agent:billing"
    )
    accord.collecting.submit(
        opened.collecting_id, {"output": 1450, "confidence": 0.5}, by="agent:audit"
    )
    frozen_clock.advance(HOUR - timedelta(seconds=1))
    assert sweep.run().fired == []  # not due yet
    frozen_clock.advance(timedelta(seconds=1))
    report = sweep.run()
    assert [f.handled.outcome for f in report.fired] == ["settled"]
    closed = accord.collecting.get(opened.collecting_id)
    assert closed.status is CollectingStatus.SETTLED
    assert closed.closed_reason == "deadline_passed"
    assert closed.missing == ("agent:ops",)
    assert closed.case_id is not None
    case = accord.cases.get(closed.case_id)
    assert [p.agent for p in case.positions] == ["agent:billing", "agent:audit"]
    assert report.fired[0].handled.value.case_id == case.case_id
    assert _deadline_states(accord, opened.collecting_id) == ["fired"]
    assert accord.verify(workers=1).cases == 1


def test_the_deadline_abandons_a_case_with_fewer_than_two_positions(
    accord: Accord, sweep: DeadlineSweep, frozen_clock: FrozenClock
) -> None:
    opened = _open(accord)
    accord.collecting.submit(opened.collecting_id, {"output": 1200}, by="agent:billing")
    frozen_clock.advance(HOUR)
    assert [f.handled.outcome for f in sweep.run().fired] == ["abandoned"]
    closed = accord.collecting.get(opened.collecting_id)
    assert closed.status is CollectingStatus.ABANDONED
    assert closed.closed_reason == "too_few_positions"
    assert closed.case_id is None
    assert list(accord.cases.iter_documents()) == []
    assert sweep.run().fired == []  # fired once


def test_accords_one_sweeper_fires_a_collecting_cases_deadline_too(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    opened = _open(accord)
    frozen_clock.advance(HOUR)
    report = accord.sweep_deadlines()  # the sweeper accord sweep and the service run
    assert [f.handled.outcome for f in report.fired] == ["abandoned"]
    assert accord.collecting.get(opened.collecting_id).status is CollectingStatus.ABANDONED


def test_no_position_is_taken_after_the_deadline_nor_after_closing(
    accord: Accord, sweep: DeadlineSweep, frozen_clock: FrozenClock
) -> None:
    opened = _open(accord)
    frozen_clock.advance(HOUR)
    with pytest.raises(AccordError) as late:
        accord.collecting.submit(opened.collecting_id, {"output": 1}, by="agent:billing")
    assert late.value.code == "collecting.deadline_passed"
    sweep.run()
    with pytest.raises(AccordError) as closed:
        accord.collecting.submit(opened.collecting_id, {"output": 1}, by="agent:billing")
    assert closed.value.code == "collecting.closed"


def test_a_settled_case_is_not_settled_again_by_its_deadline(
    accord: Accord, sweep: DeadlineSweep, frozen_clock: FrozenClock
) -> None:
    opened = _open(accord, PARTIES[:2])
    accord.collecting.submit(opened.collecting_id, {"output": 1}, by=PARTIES[0])
    settled = accord.collecting.submit(opened.collecting_id, {"output": 2}, by=PARTIES[1])
    frozen_clock.advance(HOUR)
    assert sweep.run().fired == []  # the deadline was cancelled with the settle
    assert accord.collecting.get(opened.collecting_id) == settled


def test_a_closed_collecting_case_does_not_move_again(accord: Accord) -> None:
    from accord.cases.lifecycle import move_collecting

    opened = _open(accord, PARTIES[:2])
    accord.collecting.submit(opened.collecting_id, {"output": 1}, by=PARTIES[0])
    settled = accord.collecting.submit(opened.collecting_id, {"output": 2}, by=PARTIES[1])
    with pytest.raises(IllegalTransition):
        move_collecting(settled, CollectingStatus.ABANDONED, closed_reason="x")


def test_an_unknown_case_is_not_found(accord: Accord) -> None:
    with pytest.raises(NotFound):
        accord.collecting.get("coll:nope")
    with pytest.raises(NotFound):
        accord.collecting.submit("coll:nope", {"output": 1}, by="agent:billing")


def test_the_list_pages_newest_first_and_filters_by_party_and_status(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    first = _open(accord, PARTIES[:2])
    frozen_clock.advance(timedelta(milliseconds=5))
    second = _open(accord, PARTIES[1:])
    assert [c.collecting_id for c in accord.collecting.list()] == [
        second.collecting_id,
        first.collecting_id,
    ]
    assert [c.collecting_id for c in accord.collecting.list(party="agent:billing")] == [
        first.collecting_id
    ]
    page = accord.collecting.list(limit=1)
    assert [c.collecting_id for c in accord.collecting.list(before=page[0].collecting_id)] == [
        first.collecting_id
    ]
    assert accord.collecting.list(status="settled") == []
    with pytest.raises(ValidationError):
        accord.collecting.list(status="nope")
    with pytest.raises(ValidationError):
        accord.collecting.list(limit=0)


def test_a_read_only_accord_refuses_to_open_or_submit(
    tmp_path: Path, database_url: str, frozen_clock: FrozenClock, accord: Accord
) -> None:
    opened = _open(accord)
    reader = Accord.open(
        db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock, read_only=True
    )
    try:
        with pytest.raises(AccordError) as refused:
            reader.collecting.submit(opened.collecting_id, {"output": 1}, by="agent:billing")
        assert refused.value.code == "accord.read_only"
        with pytest.raises(AccordError):
            _open(reader)
        assert reader.collecting.get(opened.collecting_id) == opened
    finally:
        reader.close()


def test_the_window_may_be_given_in_seconds(accord: Accord) -> None:
    opened = accord.collecting.open("s", PARTIES, within=90, opened_by="admin")
    assert opened.deadline_at - opened.opened_at == timedelta(seconds=90)


def test_a_position_settle_could_not_compare_with_those_in_is_refused_at_once(
    accord: Accord,
) -> None:
    opened = _open(accord)
    accord.collecting.submit(opened.collecting_id, {"output": 1200}, by="agent:billing")
    with pytest.raises(ValidationError) as refused:
        accord.collecting.submit(opened.collecting_id, {"output": "lots"}, by="agent:audit")
    assert refused.value.code == "conflicts.mixed_output_types"
    assert refused.value.context["field"] == "position.output"
    assert accord.collecting.get(opened.collecting_id).submitted == ("agent:billing",)


def test_the_deadline_abandons_a_case_whose_positions_settle_refuses(
    accord: Accord, sweep: DeadlineSweep, frozen_clock: FrozenClock
) -> None:
    from accord.cases.collecting.rows import store_position

    opened = _open(accord)
    with accord.db.write() as conn:  # stored before a rule changed, say: settle refuses them now
        for agent, output in (("agent:billing", 1200), ("agent:audit", "lots")):
            position = Position(agent=agent, output=output)
            assert store_position(conn, opened.collecting_id, position, frozen_clock.now())
    frozen_clock.advance(HOUR)
    report = sweep.run()
    assert report.failed == []
    assert [f.handled.outcome for f in report.fired] == ["abandoned"]
    closed = accord.collecting.get(opened.collecting_id)
    assert (closed.status, closed.closed_reason) == (
        CollectingStatus.ABANDONED,
        "positions_refused",
    )
    assert list(accord.cases.iter_documents()) == []


def test_more_parties_than_a_case_compares_and_a_non_mapping_position_are_refused(
    accord: Accord,
) -> None:
    many = [f"agent:{n}" for n in range(101)]  # limits.positions_per_case is 100
    with pytest.raises(LimitExceeded) as refused:
        accord.collecting.open("s", many, within=HOUR, opened_by="admin")
    assert refused.value.context["field"] == "parties"
    opened = _open(accord)
    with pytest.raises(ValidationError) as bad:
        accord.collecting.submit(opened.collecting_id, 1200, by="agent:billing")  # type: ignore[arg-type]
    assert bad.value.context["field"] == "position"


def test_an_acting_agent_opens_only_a_case_it_is_party_to_and_nothing_is_written(
    accord: Accord,
) -> None:
    with pytest.raises(AccordError) as refused:
        accord.collecting.open(
            "Total of invoice 4411",
            ["agent:audit", "agent:ops"],
            within=HOUR,
            opened_by="agent:billing",
            acting_agent="agent:billing",
        )
    assert refused.value.code == "approvals.not_a_party"
    assert refused.value.context["field"] == "parties"
    assert accord.collecting.list() == []
    assert _deadline_states(accord, "") == []
    opened = accord.collecting.open(
        "Total of invoice 4411", PARTIES, within=HOUR, opened_by="x", acting_agent="agent:ops"
    )
    assert opened.parties == tuple(PARTIES)
