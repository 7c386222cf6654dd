"""A dispute that leaves contextual arbitration withdraws its human members' pending ballot
papers, in the step's own transaction, whichever path takes it off the tier: a party's
escalation (R17), the tier deadline (R4; one sweeper batch, one look-up), the complainant's
withdrawal. A withdrawn paper is ``cancelled`` in the queue and a decision on it is refused."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import Connection, event

from accord.approvals import AlreadyDecided, ApprovalStatus
from accord.dcp07.deadlines import DeadlineStep
from accord.deadlines import DeadlineSweep
from accord.deadlines.dispute_tier import DISPUTE_TIER, DisputeAtDeadline, DisputeTierHandler
from accord.store import Database

from ._human_panel import Panel
from ._world import BILLING


def _statuses(panel: Panel, dispute_id: str) -> dict[str, ApprovalStatus]:
    assert panel.queue is not None
    return {
        p.agent_id: panel.queue.get(p.item_id).status
        for p in panel.arbitration.ballot_papers(dispute_id)
    }


def _past_tier_deadline(panel: Panel, *dispute_ids: str) -> None:
    last = max(panel.disputes.show(d).record.escalation_deadline or "" for d in dispute_ids)
    panel.clock.advance(datetime.fromisoformat(last.replace("Z", "+00:00")) - panel.clock.now())


class OneAtATime:
    """The dispute port without its batch form: the sweeper takes the single path."""

    def __init__(self, panel: Panel) -> None:
        self._port = panel.disputes.deadlines

    def dispute_at_deadline(self, conn: Connection, dispute_id: str) -> DisputeAtDeadline | None:
        return self._port.dispute_at_deadline(conn, dispute_id)

    def apply_deadline(
        self, conn: Connection, dispute_id: str, step: DeadlineStep, now: datetime
    ) -> None:
        self._port.apply_deadline(conn, dispute_id, step, now)


def _tier_sweep(db: Database, panel: Panel, port: Any) -> DeadlineSweep:
    """Only the tier deadline (the papers' own timeouts, due earlier, are left armed here, as
    when another sweeper owns approvals)."""
    return DeadlineSweep(db, panel.clock, {DISPUTE_TIER: DisputeTierHandler(port)})


@contextmanager
def _paper_lookups(db: Database) -> Iterator[list[str]]:
    """The statements reading ``dispute_ballot_papers`` while the block runs."""
    seen: list[str] = []

    def listen(*args: Any) -> None:
        statement = str(args[2])
        if "dispute_ballot_papers" in statement and statement.lstrip().upper().startswith("SELECT"):
            seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", listen)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", listen)


def test_r17_a_partys_escalation_to_appeal_withdraws_the_pending_papers(panel: Panel) -> None:
    dispute_id, members = panel.seat()
    panel.decide(dispute_id, members[0], "approve")

    panel.disputes.escalate(dispute_id, by=BILLING.agent_id, to_tier="human_appeal")

    statuses = _statuses(panel, dispute_id)
    assert statuses[members[0]] is ApprovalStatus.APPROVED  # the vote cast stays cast
    assert {statuses[m] for m in members[1:]} == {ApprovalStatus.CANCELLED}
    assert panel.queue is not None
    assert not {i.item_id for i in panel.queue.pending()} & {
        p.item_id for p in panel.arbitration.ballot_papers(dispute_id)
    }


def test_r17_a_decision_on_a_withdrawn_paper_is_refused_and_casts_no_vote(
    panel: Panel,
) -> None:
    dispute_id, members = panel.seat()
    panel.disputes.escalate(dispute_id, by=BILLING.agent_id, to_tier="human_appeal")

    with pytest.raises(AlreadyDecided) as refused:
        panel.decide(dispute_id, members[0], "approve")

    assert refused.value.context["status"] == "cancelled"
    assert "withdrawn" in refused.value.message
    seated = panel.arbitration.panel(dispute_id)
    assert seated is not None
    assert seated.votes == ()


def test_r06_the_complainants_withdrawal_withdraws_the_pending_papers(panel: Panel) -> None:
    dispute_id, members = panel.seat()
    panel.disputes.withdraw(dispute_id, by=BILLING.agent_id)
    assert set(_statuses(panel, dispute_id).values()) == {ApprovalStatus.CANCELLED}
    assert len(members) == len(_statuses(panel, dispute_id))


@pytest.mark.parametrize("path", ["batch", "single"])
def test_r04_the_tier_deadline_withdraws_the_pending_papers_of_every_dispute_it_escalates(
    db: Database, panel: Panel, path: str
) -> None:
    seated = [panel.seat()[0] for _ in range(3)]
    _past_tier_deadline(panel, *seated)
    port = panel.disputes.deadlines if path == "batch" else OneAtATime(panel)

    with _paper_lookups(db) as lookups:
        fired = _tier_sweep(db, panel, port).run()

    assert len(fired.fired) == len(seated)
    for dispute_id in seated:
        assert panel.disputes.show(dispute_id).tier == "human_appeal"
        assert set(_statuses(panel, dispute_id).values()) == {ApprovalStatus.CANCELLED}
    assert len(lookups) == (1 if path == "batch" else len(seated))


def test_r04_escalations_from_tier_one_look_up_no_papers(db: Database, panel: Panel) -> None:
    opened = [
        panel.disputes.open(_filing(i)).dispute_id for i in range(3)
    ]  # still at direct negotiation
    _past_tier_deadline(panel, *opened)
    with _paper_lookups(db) as lookups:
        fired = _tier_sweep(db, panel, panel.disputes.deadlines).run()
    assert len(fired.fired) == len(opened)
    assert lookups == []


def test_the_withdrawal_rolls_back_with_the_step_that_made_it(panel: Panel) -> None:
    dispute_id, _ = panel.seat()
    inside: list[ApprovalStatus] = []

    def move_then_fail() -> None:
        with panel.disputes.transaction() as conn:
            panel.disputes.move_within(
                conn, dispute_id, "appealing", event_type="dispute_escalated",
                actor="accord:test", tier="human_appeal",
            )  # fmt: skip
            inside.extend(_statuses_within(panel, conn, dispute_id))
            raise RuntimeError("the step fails after the move")

    with pytest.raises(RuntimeError):
        move_then_fail()
    assert set(inside) == {ApprovalStatus.CANCELLED}
    assert set(_statuses(panel, dispute_id).values()) == {ApprovalStatus.PENDING}
    assert panel.disputes.show(dispute_id).tier == "contextual_arbitration"


def _statuses_within(panel: Panel, conn: Connection, dispute_id: str) -> Sequence[ApprovalStatus]:
    assert panel.queue is not None
    queue = panel.queue
    seated = panel.arbitration.ballot_papers(dispute_id)
    return [queue.get_within(conn, p.item_id).status for p in seated]


def _filing(i: int) -> Mapping[str, Any]:
    return {
        "dispute_type": "resource_conflict",
        "severity": "high",
        "complainant": {**BILLING.model_dump(mode="json"), "agent_id": f"agent:filer-{i}"},
        "respondents": [{**BILLING.model_dump(mode="json"), "agent_id": f"agent:other-{i}"}],
        "subject": "both booked the GPU",
        "evidence": [
            {"evidence_type": "log", "reference": "log:1", "description": "booking log",
             "content": {"booked": i}},
        ],
    }  # fmt: skip
