"""Strategy 4, hybrid, chosen in accord.yaml: a reviewer decides clear cases, people the rest."""

from __future__ import annotations

from pathlib import Path

from accord import SettleStatus
from accord.cases import CaseStatus
from accord.conflicts import Tier

from ._support import (
    contradiction,
    critical_opt_in,
    expected_usage,
    first_group_wins,
    ledger_events,
    position_biased_judge,
    reviewer_key,
    scripted_model,
    second_group_wins,
    write_config,
)
from .conftest import OpenAccord

ARGUMENTS = ("Vendor is on the OFAC list since May.", "The listed entity is a namesake.")
REVIEWER = "agent:compliance-reviewer"


def hybrid_config(tmp_path: Path, *script: str) -> Path:
    return write_config(
        tmp_path,
        {
            "conflict_resolution": critical_opt_in(
                {
                    "strategy": "hybrid",
                    "hybrid": {"review_agent": REVIEWER, "clear_confidence": 0.8},
                }
            ),
            "model": scripted_model(*script),
            "approvals": {"principals": {"human:alice": []}},
        },
    )


def test_a_clear_review_settles_the_case_with_dissent(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    script = [*ARGUMENTS, *second_group_wins(0.92, "the registry entry has another address")]
    accord = open_accord(hybrid_config(tmp_path, *script))

    case = accord.settle("Is vendor 88 sanctioned?", contradiction("agent:risk", "agent:sales"))

    assert case.status is SettleStatus.SETTLED
    assert case.dcp_status is CaseStatus.RESOLVED
    assert case.tier is Tier.CONTEXTUAL_ARBITRATION
    assert case.strategy == "hybrid"
    assert case.decision is not None
    assert (case.decision.winner, case.decision.answer) == ("agent:sales", False)
    assert case.decision.rung == "hybrid"
    assert case.decision.confidence == 0.92
    [dissent] = accord.dissent.query(strategy="hybrid")
    assert dissent.agent_id == "agent:risk"
    assert dissent.decided_by == REVIEWER
    assert dissent.reasoning == "the registry entry has another address"
    assert dissent.arguments == {"agent:risk": ARGUMENTS[0], "agent:sales": ARGUMENTS[1]}
    assert case.model_calls == 4
    assert case.tokens_in == expected_usage(accord.model)[0] > 0
    assert case.tokens_out > 0
    assert accord.approvals.list() == []
    assert ledger_events(accord) == {
        "dispute_opened": 1,
        "dispute_escalated": 1,
        "dispute_resolved": 1,
    }


def test_an_ambiguous_review_is_queued_with_the_reviewers_analysis(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    script = [*ARGUMENTS, *position_biased_judge("whichever I read first convinces me")]
    accord = open_accord(hybrid_config(tmp_path, *script))

    case = accord.settle("Is vendor 88 sanctioned?", contradiction("agent:risk", "agent:sales"))

    assert case.status is SettleStatus.ESCALATED
    assert case.dcp_status is CaseStatus.APPEALING
    assert case.tier is Tier.HUMAN_APPEAL
    assert case.decision is None
    assert case.model_calls == 4  # one review round: ambiguity goes to people, not to round 2
    assert case.escalation is not None
    assert "verdicts disagree under the swap" in case.escalation.reason
    [item] = accord.approvals.list(case_id=case.case_id)
    assert item.item_id == case.approval_item_id
    assert item.options == ("true", "false")
    assert f"Review agent {REVIEWER}: whichever I read first convinces me" in item.analysis
    assert f"agent:risk: {ARGUMENTS[0]}" in item.analysis
    assert f"agent:sales: {ARGUMENTS[1]}" in item.analysis
    assert ledger_events(accord) == {
        "dispute_opened": 1,
        "dispute_escalated": 2,
        "approval_requested": 1,
    }


def test_a_consistent_but_unsure_review_is_ambiguous_too(
    tmp_path: Path, open_accord: OpenAccord
) -> None:
    script = [*ARGUMENTS, *first_group_wins(0.6, "probably the listing")]
    accord = open_accord(hybrid_config(tmp_path, *script))

    case = accord.settle("Is vendor 88 sanctioned?", contradiction("agent:risk", "agent:sales"))

    assert case.tier is Tier.HUMAN_APPEAL
    assert case.escalation is not None
    assert "confidence 0.60 is below clear_confidence 0.80" in case.escalation.reason
    item = accord.approvals.get(str(case.approval_item_id))
    assert "probably the listing" in item.analysis

    accord.decide(item.item_id, reviewer_key(accord, "human:alice"), choice="true")
    settled = accord.cases.get(case.case_id)
    assert settled.decision is not None
    assert settled.decision.winner == "agent:risk"
    assert settled.model_calls == 4  # people add no tokens
    assert ledger_events(accord)["dispute_resolved"] == 1
