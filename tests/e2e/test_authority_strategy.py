"""Strategy 1, authority, chosen in accord.yaml: the hierarchy decides at zero model tokens."""

from __future__ import annotations

from pathlib import Path

from accord import SettleStatus
from accord.cases import CaseStatus
from accord.conflicts import Tier

from ._support import (
    FakeDecisionPort,
    contradiction,
    copy_example_org,
    critical_opt_in,
    ledger_events,
    write_config,
    write_org_with_agent_coo,
)
from .conftest import OpenAccord


def authority_config(tmp_path: Path, org: str, **authority: str) -> Path:
    policy: dict[str, object] = {"strategy": "authority"}
    if authority:
        policy["authority"] = dict(authority)
    return write_config(tmp_path, {"org": org, "conflict_resolution": critical_opt_in(policy)})


def test_the_senior_side_of_the_example_company_wins_without_a_model_call(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(authority_config(tmp_path, copy_example_org(tmp_path)))

    # agent:backend (senior) reports to agent:backend-lead (lead); the junior speaks first
    case = accord.settle(
        "Is migration 0042 safe to run?", contradiction("agent:backend", "agent:backend-lead")
    )

    assert case.status is SettleStatus.SETTLED
    assert case.tier is Tier.CONTEXTUAL_ARBITRATION
    assert case.strategy == "authority"
    assert case.decision is not None
    assert case.decision.winner == "agent:backend-lead"
    assert case.decision.answer is False
    assert case.decision.rung == "authority"
    assert (case.model_calls, case.tokens_in, case.tokens_out) == (0, 0, 0)
    assert [d.agent_id for d in case.dissent] == ["agent:backend"]
    assert case.dissent[0].decided_by == "agent:backend-lead"
    assert "most senior party (lead)" in case.dissent[0].reasoning
    assert case.department == "backend"
    assert accord.cases.get(case.case_id) == case
    assert [d.dissent_id for d in accord.cases.dissent(case.case_id)] == list(case.dissent_ids)
    assert ledger_events(accord) == {
        "dispute_opened": 1,
        "dispute_escalated": 1,
        "dispute_resolved": 1,
    }


def test_across_departments_the_lowest_common_manager_is_asked_and_decides(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    port = FakeDecisionPort({"agent:coo": "false"})
    accord = open_accord(
        authority_config(tmp_path, write_org_with_agent_coo(tmp_path)), decision_port=port
    )

    # engineering vs finance, both senior: a cross-department conflict for agent:coo
    case = accord.settle(
        "Can invoice 4411 be paid today?", contradiction("agent:backend", "agent:billing")
    )

    assert [(decider, case_id) for decider, case_id, _ in port.asked] == [
        ("agent:coo", case.case_id)
    ]
    assert port.asked[0][2] == ("true", "false")
    assert case.status is SettleStatus.SETTLED
    assert case.tier is Tier.CONTEXTUAL_ARBITRATION
    assert case.decision is not None
    assert case.decision.winner == "agent:billing"
    assert case.model_calls == 0
    assert [(d.agent_id, d.decided_by) for d in case.dissent] == [("agent:backend", "agent:coo")]
    assert "cross-department" in case.dissent[0].reasoning
    assert case.department == "executive"
    assert accord.approvals.list() == []
    assert ledger_events(accord)["dispute_resolved"] == 1


def test_a_manager_who_answers_with_no_option_sends_the_case_to_people(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(
        authority_config(tmp_path, write_org_with_agent_coo(tmp_path)),
        decision_port=FakeDecisionPort({"agent:coo": "maybe"}),
    )

    case = accord.settle("Pay today?", contradiction("agent:backend", "agent:billing"))

    assert case.status is SettleStatus.ESCALATED
    assert case.tier is Tier.HUMAN_APPEAL
    assert case.escalation is not None
    assert "answered 'maybe', not an option" in case.escalation.reason
    assert accord.approvals.get(str(case.approval_item_id)).options == ("true", "false")


def test_without_a_decision_port_a_cross_department_case_is_queued_for_people(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    accord = open_accord(authority_config(tmp_path, write_org_with_agent_coo(tmp_path)))

    case = accord.settle("Pay today?", contradiction("agent:backend", "agent:billing"))

    assert case.status is SettleStatus.ESCALATED
    assert case.dcp_status is CaseStatus.APPEALING
    assert case.tier is Tier.HUMAN_APPEAL
    assert case.strategy == "authority"
    assert case.decision is None
    assert case.model_calls == 0
    assert case.escalation is not None
    assert "no way to ask agent:coo (no decision port)" in case.escalation.reason
    [item] = accord.approvals.list(case_id=case.case_id)
    assert item.item_id == case.approval_item_id
    assert item.is_pending
    assert item.options == ("true", "false")
    assert item.risk == "critical"
    assert [p.agent for p in item.positions] == ["agent:backend", "agent:billing"]
    assert accord.cases.get(case.case_id).approval_item_id == item.item_id
    assert ledger_events(accord) == {
        "dispute_opened": 1,
        "dispute_escalated": 2,
        "approval_requested": 1,
    }


def test_a_human_ceo_as_common_manager_is_never_asked_through_the_agent_port(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    port = FakeDecisionPort({"human:ceo": "true"})
    accord = open_accord(authority_config(tmp_path, copy_example_org(tmp_path)), decision_port=port)

    case = accord.settle("Pay today?", contradiction("agent:backend", "agent:billing"))

    assert port.asked == []
    assert case.tier is Tier.HUMAN_APPEAL
    assert case.escalation is not None
    assert "the lowest common manager human:ceo is a human" in case.escalation.reason
    assert accord.approvals.get(str(case.approval_item_id)).is_pending
    ledger_events(accord)


def test_cross_department_by_seniority_decides_by_rank_and_escalates_a_tie_to_people(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    config = authority_config(
        tmp_path,
        write_org_with_agent_coo(tmp_path),
        cross_department="seniority",
        same_level="escalate",
    )
    port = FakeDecisionPort({"agent:coo": "true"})
    accord = open_accord(config, decision_port=port)

    # engineering vs finance: agent:billing (senior) outranks agent:frontend (mid)
    ranked = accord.settle("Pay today?", contradiction("agent:frontend", "agent:billing"))
    # agent:frontend and agent:legacy-reports are both mid: a tie that `escalate` hands on
    tied = accord.settle("Pay today?", contradiction("agent:frontend", "agent:legacy-reports"))

    assert port.asked == []
    assert ranked.decision is not None
    assert ranked.decision.winner == "agent:billing"
    assert ranked.tier is Tier.CONTEXTUAL_ARBITRATION
    assert tied.status is SettleStatus.ESCALATED
    assert tied.tier is Tier.HUMAN_APPEAL
    assert tied.escalation is not None
    assert "then authority: the most senior parties are of equal seniority" in (
        tied.escalation.reason
    )
    assert accord.approvals.get(str(tied.approval_item_id)).is_pending
    counts = ledger_events(accord)
    assert counts["dispute_resolved"] == 1
    assert counts["approval_requested"] == 1
