"""A collecting case settles exactly once: racing last submissions, a sweep that finds it
already closed, and a settle whose collecting case closed meanwhile (its case rolls back)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from accord import Accord
from accord.cases.collecting import CollectingCase, CollectingStatus
from accord.cases.collecting.deadline import CollectingDeadlineHandler
from accord.cases.lifecycle import move_collecting
from accord.clock import FrozenClock
from accord.deadlines import Deadline
from accord.errors import IllegalTransition

PARTIES = ["agent:billing", "agent:audit"]


@pytest.fixture
def accord(tmp_path: Path, database_url: str, frozen_clock: FrozenClock) -> Iterator[Accord]:
    instance = Accord.open(db_url=database_url, keys_dir=tmp_path / "keys", clock=frozen_clock)
    yield instance
    instance.close()


def _open(accord: Accord) -> CollectingCase:
    return accord.collecting.open("Total", PARTIES, within=3600, opened_by="admin")


def _race(accord: Accord, collecting_id: str) -> list[CollectingCase]:
    """Every party submits at the same instant, each from its own thread."""
    barrier = threading.Barrier(len(PARTIES))
    answers: list[CollectingCase] = []

    def submit(agent: str, output: int) -> None:
        barrier.wait()
        position = {"output": output, "confidence": 0.5}
        answers.append(accord.collecting.submit(collecting_id, position, by=agent))

    threads = [
        threading.Thread(target=submit, args=(agent, index)) for index, agent in enumerate(PARTIES)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_racing_last_submissions_settle_one_case(accord: Accord) -> None:
    for _ in range(3):
        opened = _open(accord)
        answers = _race(accord, opened.collecting_id)
        final = accord.collecting.get(opened.collecting_id)
        assert final.status is CollectingStatus.SETTLED
        assert any(a.case_id == final.case_id for a in answers)
    cases = list(accord.cases.iter_documents())
    assert len(cases) == 3  # one per collecting case, never two
    assert accord.verify(workers=1).cases == 3


def test_a_settle_whose_collecting_case_closed_meanwhile_rolls_its_case_back(
    accord: Accord,
) -> None:
    opened = _open(accord)
    accord.collecting.submit(opened.collecting_id, {"output": 1, "confidence": 0.9}, by=PARTIES[0])
    stale = accord.collecting.submit(
        opened.collecting_id, {"output": 2, "confidence": 0.1}, by=PARTIES[1]
    )
    assert stale.status is CollectingStatus.SETTLED
    snapshot = stale.model_copy(
        update={"status": CollectingStatus.COLLECTING, "case_id": None, "closed_at": None}
    )
    with pytest.raises(IllegalTransition), accord.db.write() as conn:
        accord.collecting.settle_within(conn, snapshot, accord.clock.now())
    assert len(list(accord.cases.iter_documents())) == 1
    assert accord.verify(workers=1).cases == 1


def test_the_deadline_handler_leaves_a_closed_or_unknown_case_alone(
    accord: Accord, frozen_clock: FrozenClock
) -> None:
    opened = _open(accord)
    accord.collecting.submit(opened.collecting_id, {"output": 1}, by=PARTIES[0])
    accord.collecting.submit(opened.collecting_id, {"output": 2}, by=PARTIES[1])
    handler = CollectingDeadlineHandler(accord.collecting)
    now = frozen_clock.now() + timedelta(hours=2)
    for subject in (opened.collecting_id, "coll:gone"):
        deadline = Deadline(
            deadline_id="ddl:x", kind="collecting_case", subject_id=subject,
            due_at=now, armed_at=frozen_clock.now(),
        )  # fmt: skip
        with accord.db.write() as conn:
            assert handler(conn, deadline, now).outcome == "stale"


def test_a_collecting_case_is_moved_only_by_the_lifecycle_and_only_once(accord: Accord) -> None:
    opened = _open(accord)
    with pytest.raises(TypeError):
        move_collecting(opened, CollectingStatus.SETTLED, status="settled")
    with pytest.raises(ValueError, match="names its case"):
        move_collecting(opened, CollectingStatus.SETTLED, closed_at=opened.opened_at)
    abandoned = move_collecting(
        opened, CollectingStatus.ABANDONED, closed_at=opened.opened_at, closed_reason="x"
    )
    with pytest.raises(IllegalTransition):
        move_collecting(abandoned, CollectingStatus.SETTLED, case_id="disp:1")
