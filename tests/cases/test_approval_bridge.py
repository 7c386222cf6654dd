"""A person's decision finishes the case at the one instant the queue signed: the case row, its
dissent and the signed outcome all carry it, however far the clock has moved on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from accord.app import Accord
from accord.cases import SettleStatus
from accord.clock import isoformat

from ..e2e._support import numbers_tied, reviewer_key, write_config


class TickingClock:
    """Every reading is one second after the previous one."""

    def __init__(self) -> None:
        self.moment = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        self.moment += timedelta(seconds=1)
        return self.moment


def _accord(tmp_path: Path, database_url: str) -> Accord:
    config = write_config(
        tmp_path,
        {
            "conflict_resolution": {"strategy": "human"},
            "approvals": {"principals": {"human:alice": [], "human:bob": []}},
        },
    )
    return Accord.open(
        config, db_url=database_url, keys_dir=tmp_path / "keys", clock=TickingClock()
    )


def _signed(accord: Accord, event_type: str) -> dict[str, object]:
    return next(e.record for e in accord.ledger.entries() if e.event_type == event_type)


def test_a_decided_case_carries_the_decision_time_the_queue_signed(
    tmp_path: Path, database_url: str
) -> None:
    accord = _accord(tmp_path, database_url)
    try:
        case = accord.settle("Total of invoice 4411", numbers_tied("agent:a", "agent:b"))
        accord.decide(
            str(case.approval_item_id), reviewer_key(accord, "human:alice"), choice="1450"
        )
        settled = accord.cases.get(case.case_id)
        assert settled.status is SettleStatus.SETTLED
        assert settled.decided_at is not None
        decided_at = _signed(accord, "approval_decided")["decided_at"]
        assert isoformat(settled.decided_at) == decided_at
        assert isoformat(settled.dissent[0].created_at) == decided_at
        resolved = _signed(accord, "dispute_resolved")
        assert resolved["decided_at"] == decided_at
        assert resolved["log"]["time"] == decided_at  # type: ignore[index]
    finally:
        accord.close()


def test_a_denied_case_carries_the_decision_time_the_queue_signed(
    tmp_path: Path, database_url: str
) -> None:
    accord = _accord(tmp_path, database_url)
    try:
        case = accord.settle("Total of invoice 4411", numbers_tied("agent:a", "agent:b"))
        item_id = str(case.approval_item_id)
        accord.decide(item_id, reviewer_key(accord, "human:bob"), deny=True, reason="no")
        closed = accord.cases.get(case.case_id)
        assert closed.status is SettleStatus.DENIED
        decided_at = _signed(accord, "approval_decided")["decided_at"]
        assert closed.decided_at is not None
        assert isoformat(closed.decided_at) == decided_at
        assert _signed(accord, "dispute_abandoned")["decided_at"] == decided_at
    finally:
        accord.close()
