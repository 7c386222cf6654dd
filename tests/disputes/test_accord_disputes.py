"""``Accord.disputes`` end to end: settle and disputes share one ledger, the sweep built as
``accord sweep`` builds it escalates disputes, and ``Accord.verify`` still passes."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from accord.app import Accord
from accord.app.deadline_sweep import deadline_sweep
from accord.clock import FrozenClock
from accord.errors import AccordError
from tests.disputes.conftest import evidence, filing_data

POSITIONS = [{"agent": "a", "output": 1, "confidence": 0.9}, {"agent": "b", "output": 2}]


def test_accord_verify_passes_after_disputes_settles_and_sweeps_share_the_ledger(
    database_url: str, tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    accord = Accord.open(db_url=database_url, keys_dir=tmp_path / "k", clock=frozen_clock)
    try:
        accord.settle("how many", POSITIONS)
        opened = accord.disputes.open(filing_data(severity="high"))
        accord.disputes.submit_evidence(opened.dispute_id, [evidence(2), evidence(3)], by="agent-b")
        accord.settle("how many again", POSITIONS)
        other = accord.disputes.open(filing_data(respondents=["agent-b", "agent-c"]))
        accord.disputes.withdraw(other.dispute_id, by="agent-a")
        sweep = deadline_sweep(
            accord.db, accord.clock, accord.approvals, disputes=accord.disputes.deadlines
        )
        frozen_clock.advance(timedelta(hours=1))
        assert [f.handled.outcome for f in sweep.run().fired] == ["escalated"]
        report = accord.verify()
        assert report.entries == accord.ledger.size()
        assert report.cases == 2
        counts = accord.ledger.count_by_event_type()
        assert counts["dispute_evidence_submitted"] == 1
        assert counts["dispute_withdrawn"] == 1
        escalated = accord.disputes.show(opened.dispute_id)
        assert escalated.status == "escalated"
        assert accord.ledger.get(escalated.ledger_seqs[-1]).event_type == "dispute_escalated"
    finally:
        accord.close()


def test_a_read_only_accord_reads_disputes_and_refuses_to_change_them(
    tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    writer = Accord.open(db_url=url, keys_dir=tmp_path / "k", clock=frozen_clock)
    opened = writer.disputes.open(filing_data())
    writer.close()
    reader = Accord.open(db_url=url, keys_dir=tmp_path / "k", clock=frozen_clock, read_only=True)
    try:
        assert reader.disputes.show(opened.dispute_id).status == "open"
        assert [s.dispute_id for s in reader.disputes.list().items] == [opened.dispute_id]
        with pytest.raises(AccordError) as caught:
            reader.disputes.withdraw(opened.dispute_id, by="agent-a")
        assert caught.value.code == "accord.read_only"
    finally:
        reader.close()


def test_r34_the_rate_limit_configured_in_accord_yaml_refuses_the_next_filing(
    tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    config = tmp_path / "accord.yaml"
    config.write_text(
        f"database: {{url: 'sqlite:///{tmp_path / 'a.db'}'}}\n"
        f"keys: {{directory: {tmp_path / 'k'}}}\n"
        "disputes: {filing: {max_filings: 2, window_hours: 1}}\n",
        encoding="utf-8",
    )
    accord = Accord.open(config, clock=frozen_clock)
    try:
        accord.disputes.open(filing_data())
        accord.disputes.open(filing_data())
        with pytest.raises(AccordError) as caught:
            accord.disputes.open(filing_data())
        assert caught.value.context["requirement"] == "R34"
        assert len(accord.disputes.list().items) == 2
        frozen_clock.advance(timedelta(hours=1, seconds=1))  # the configured window, not 24 h
        accord.disputes.open(filing_data())
    finally:
        accord.close()
