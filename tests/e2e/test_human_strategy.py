"""Strategy 3, human, chosen in accord.yaml: people decide; parked agent tasks resume after."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from accord import SettleStatus
from accord.approvals import AlreadyDecided, AlreadyResumed, ApprovalStatus, DecisionForbidden
from accord.cases import CaseStatus
from accord.clock import FrozenClock
from accord.conflicts import Tier
from accord.errors import ValidationError

from ._support import ledger_events, numbers_tied, reviewer_key, write_config
from .conftest import OpenAccord

INVOICE = "Total of invoice 4411"
CONTEXT = {"step": "pay_invoice", "invoice": 4411, "retries": [1, 2]}


REVIEWERS = {"human:alice": [], "human:bob": []}


def human_config(tmp_path: Path, **approvals: Any) -> Path:
    """The human strategy; alice and bob are configured reviewers unless ``principals`` says."""
    body: dict[str, Any] = {
        "conflict_resolution": {"strategy": "human"},
        "approvals": {"principals": REVIEWERS, **approvals},
    }
    return write_config(tmp_path, body)


def test_a_genuine_conflict_is_queued_with_the_answers_as_the_options(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(human_config(tmp_path))

    case = accord.settle(INVOICE, numbers_tied("agent:billing", "agent:audit"))

    assert case.status is SettleStatus.ESCALATED
    assert case.dcp_status is CaseStatus.APPEALING
    assert case.tier is Tier.HUMAN_APPEAL
    assert case.strategy == "human"
    assert case.model_calls == 0
    [item] = accord.approvals.pending()
    assert item.item_id == case.approval_item_id
    assert item.case_id == case.case_id
    assert item.options == ("1200", "1450")
    assert [(p.agent, p.answer) for p in item.positions] == [
        ("agent:billing", 1200),
        ("agent:audit", 1450),
    ]
    assert "no weighted majority" in item.analysis  # what tier 1 tried, for people
    assert item.title == f"Decide: {INVOICE}"
    assert ledger_events(accord) == {
        "dispute_opened": 1,
        "dispute_escalated": 2,
        "approval_requested": 1,
    }


def test_a_person_decides_the_case_settles_and_the_parked_task_resumes_once(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(human_config(tmp_path))
    case = accord.settle(INVOICE, numbers_tied("agent:billing", "agent:audit"))
    item_id = str(case.approval_item_id)
    handle = accord.park(case, "agent:billing", CONTEXT)
    assert handle.poll() is None  # nobody decided yet

    with pytest.raises(ValidationError) as unknown:
        accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="1300")
    assert unknown.value.code == "approvals.unknown_choice"
    item = accord.decide(
        item_id, reviewer_key(accord, "human:alice"), choice="1450", reason="shipping is owed"
    )

    assert item.status is ApprovalStatus.APPROVED
    settled = accord.cases.get(case.case_id)
    assert settled.status is SettleStatus.SETTLED
    assert settled.dcp_status is CaseStatus.RESOLVED
    assert settled.tier is Tier.HUMAN_APPEAL
    assert settled.decision is not None
    assert (settled.decision.winner, settled.decision.answer) == ("agent:audit", 1450)
    assert settled.decision.rung == "human"
    [dissent] = accord.dissent.query(agent="agent:billing")
    assert (dissent.decided_by, dissent.reasoning) == ("human:alice", "shipping is owed")
    assert dissent.strategy == "human"
    assert dissent.winning_answer == 1450

    resumption = handle.poll()
    assert resumption is not None
    assert resumption.context == CONTEXT
    assert resumption.agent_id == "agent:billing"
    assert resumption.decision.choice == "1450"
    assert resumption.decision.decided_by == "human:alice"
    assert resumption.decision.via == "human"
    with pytest.raises(AlreadyResumed):
        handle.poll()

    with pytest.raises(AlreadyDecided) as again:
        accord.decide(item_id, reviewer_key(accord, "human:bob"), choice="1200")
    assert again.value.context["decided_by"] == "human:alice"
    assert accord.cases.get(case.case_id).decision == settled.decision
    assert ledger_events(accord) == {
        "dispute_opened": 1,
        "dispute_escalated": 2,
        "approval_requested": 1,
        "approval_decided": 1,
        "dispute_resolved": 1,
    }


def test_a_denial_closes_the_case_unsettled_and_still_resumes_the_task(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(human_config(tmp_path))
    case = accord.settle(INVOICE, numbers_tied("agent:billing", "agent:audit"))
    handle = accord.park(case.case_id, "agent:audit", CONTEXT)

    accord.decide(
        str(case.approval_item_id), reviewer_key(accord, "human:alice"), deny=True, reason="re-run"
    )

    closed = accord.cases.get(case.case_id)
    assert closed.dcp_status is CaseStatus.ABANDONED
    assert closed.decision is None
    assert closed.escalation is not None
    assert "denied (human:alice: re-run)" in closed.escalation.reason
    resumption = handle.poll()
    assert resumption is not None
    assert resumption.decision.outcome == "denied"
    assert ledger_events(accord)["dispute_abandoned"] == 1


def test_an_agent_awaiting_the_decision_resumes_in_process(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(human_config(tmp_path))
    case = accord.settle(INVOICE, numbers_tied("agent:billing", "agent:audit"))
    handle = accord.park(case, "agent:billing", CONTEXT)
    slept: list[float] = []

    async def a_person_decides_meanwhile(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 2:
            accord.decide(
                str(case.approval_item_id), reviewer_key(accord, "human:alice"), choice="1200"
            )

    resumption = asyncio.run(handle.decision(poll_interval=5, sleep=a_person_decides_meanwhile))

    assert slept == [5, 5]
    assert resumption.context == CONTEXT
    assert resumption.decision.choice == "1200"
    settled = accord.cases.get(case.case_id)
    assert settled.decision is not None
    assert settled.decision.winner == "agent:billing"
    ledger_events(accord)


def test_a_deny_policy_expires_an_undecided_item_and_the_case_is_abandoned(
    tmp_path: Path, open_accord: OpenAccord, frozen_clock: FrozenClock
) -> None:
    config = human_config(tmp_path, timeout_policy={"kind": "deny", "timeout_minutes": 30})
    accord = open_accord(config)
    case = accord.settle(INVOICE, numbers_tied("agent:billing", "agent:audit"))
    handle = accord.park(case, "agent:billing", CONTEXT)
    item_id = str(case.approval_item_id)
    assert accord.approvals.get(item_id).deadline == frozen_clock.now() + timedelta(minutes=30)

    frozen_clock.advance(timedelta(minutes=29))
    assert accord.sweep() == []
    frozen_clock.advance(timedelta(minutes=2))
    [expired] = accord.sweep()

    assert expired.item_id == item_id
    assert expired.status is ApprovalStatus.EXPIRED  # expired, not denied by a person
    assert expired.decision is not None
    assert (expired.decision.outcome, expired.decision.via) == ("expired", "timeout")
    assert expired.decision.decided_by == "system:timeout"
    abandoned = accord.cases.get(case.case_id)
    assert abandoned.status is SettleStatus.EXPIRED
    assert abandoned.dcp_status is CaseStatus.ABANDONED
    assert abandoned.decision is None
    assert abandoned.escalation is not None
    assert "expired without a decision" in abandoned.escalation.reason
    resumption = handle.poll()
    assert resumption is not None
    assert resumption.decision.outcome == "expired"
    assert accord.sweep() == []  # exactly once
    counts = ledger_events(accord)
    assert counts["approval_expired"] == 1
    assert counts["dispute_abandoned"] == 1
    assert "approval_decided" not in counts
    assert "dispute_resolved" not in counts


def test_a_task_parked_in_one_process_resumes_in_another(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    config = human_config(tmp_path)
    agent_process = open_accord(config)
    case = agent_process.settle(INVOICE, numbers_tied("agent:billing", "agent:audit"))
    task_id = agent_process.park(case, "agent:billing", CONTEXT).task_id
    agent_process.close()

    reviewer_process = open_accord(config)
    [pending] = reviewer_process.approvals.pending()
    reviewer_process.decide(
        pending.item_id, reviewer_key(reviewer_process, "human:alice"), choice="1450"
    )
    restarted_agent = open_accord(config)
    resumption = restarted_agent.parking.handle(task_id).poll()

    assert resumption is not None
    assert resumption.task_id == task_id
    assert resumption.context == CONTEXT
    assert resumption.decision.choice == "1450"
    with pytest.raises(AlreadyResumed):
        reviewer_process.parking.handle(task_id).poll()
    settled = restarted_agent.cases.get(case.case_id)
    assert settled.decision is not None
    assert settled.decision.winner == "agent:audit"
    assert ledger_events(restarted_agent)["dispute_resolved"] == 1


def test_an_escalation_chain_only_lets_the_current_role_decide(
    tmp_path: Path, open_accord: OpenAccord, frozen_clock: FrozenClock
) -> None:
    config = human_config(
        tmp_path,
        timeout_policy={
            "kind": "escalation_chain",
            "steps": [
                {"role": "finance-lead", "timeout_minutes": 60},
                {"role": "cfo-office", "timeout_minutes": 120},
            ],
            "on_chain_exhausted": "deny",
        },
        principals={
            "human:alice": ["finance-lead"],
            "human:bob": [],
            "human:carol": ["cfo-office"],
        },
    )
    accord = open_accord(config)
    case = accord.settle(INVOICE, numbers_tied("agent:billing", "agent:audit"))
    item_id = str(case.approval_item_id)
    assert accord.approvals.get(item_id).current_role == "finance-lead"

    with pytest.raises(DecisionForbidden) as forbidden:
        accord.decide(item_id, reviewer_key(accord, "human:bob"), choice="1450")
    assert forbidden.value.code == "approvals.forbidden"
    assert forbidden.value.context["required_role"] == "finance-lead"
    assert accord.approvals.get(item_id).is_pending
    assert accord.approvals.pending_for(accord.principal("human:carol")) == []

    frozen_clock.advance(timedelta(minutes=61))
    [escalated] = accord.sweep()
    assert escalated.current_role == "cfo-office"
    with pytest.raises(DecisionForbidden):
        accord.decide(item_id, reviewer_key(accord, "human:alice"), choice="1450")
    accord.decide(item_id, reviewer_key(accord, "human:carol"), choice="1450")

    settled = accord.cases.get(case.case_id)
    assert settled.status is SettleStatus.SETTLED
    assert settled.dissent[0].decided_by == "human:carol"
    counts = ledger_events(accord)
    assert counts["approval_escalated"] == 1
    assert counts["approval_decided"] == 1


def test_a_deny_timeout_never_settles_a_case_whose_answer_is_the_word_deny(
    tmp_path: Path, open_accord: OpenAccord, frozen_clock: FrozenClock
) -> None:
    config = human_config(tmp_path, timeout_policy={"kind": "deny", "timeout_minutes": 30})
    accord = open_accord(config)
    case = accord.settle(
        "Refund request 12",
        [
            {"agent": "agent:support", "output": "deny", "confidence": 0.8},
            {"agent": "agent:sales", "output": "allow", "confidence": 0.8},
        ],
    )
    frozen_clock.advance(timedelta(minutes=31))
    accord.sweep()

    after = accord.cases.get(case.case_id)
    assert after.decision is None
    assert after.dcp_status is CaseStatus.ABANDONED
