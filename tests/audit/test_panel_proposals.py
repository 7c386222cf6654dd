"""The dispute audit holds a panel's votes and decided record against the proposed §6
resolution in force (R14, R19): a vote naming another proposal's hash, a proposal that does
not hash to its stated hash, or a decided record whose actions are not the proposal's, are
named even when every row agrees with its (rewritten) step."""

from __future__ import annotations

from typing import Any

from accord.audit.disputes.proposals import proposal_problem
from accord.audit.disputes.signed import SignedDispute, SignedStep
from accord.dcp07.panels import PanelQuestion

DISPUTE = "disp:0197aaaa-0000-7000-8000-000000000001"
ACTION = {"agent_id": "agent:audit", "action": "release", "deadline": "2026-12-08T00:00:00.000000Z"}


def _question(**proposal: Any) -> PanelQuestion:
    return PanelQuestion.model_validate(
        {
            "dispute_id": DISPUTE,
            "question": "who keeps the slot?",
            "positions": [
                {"agent_id": "agent:billing", "argument": "first"},
                {"agent_id": "agent:audit", "argument": "statute"},
            ],
            "proposal": {"favours": "agent:billing", "description": "billing keeps it", **proposal},
        }
    )


def _step(seq: int, question: PanelQuestion, **details: Any) -> SignedStep:
    return SignedStep(
        seq,
        None,
        {
            "question": question.model_dump(mode="json"),
            "resolution_hash": question.resolution_hash,
            **details,
        },
    )


def _vote(seq: int, resolution_hash: str) -> SignedStep:
    return SignedStep(
        seq, None, {"vote": {"agent_id": "arb:00", "resolution_hash": resolution_hash}}
    )


def _dispute(proposed: PanelQuestion) -> SignedDispute:
    dispute = SignedDispute()
    dispute.panel = _step(1, _question())
    dispute.proposals = [_step(2, proposed, step="panel_proposal")]
    return dispute


def test_votes_on_the_proposal_in_force_pass() -> None:
    proposed = _question(actions_required=[ACTION], compliance_deadline=ACTION["deadline"])
    dispute = _dispute(proposed)
    dispute.vote_steps = [_vote(3, proposed.resolution_hash)]
    assert proposal_problem(DISPUTE, dispute) is None


def test_a_vote_on_the_text_the_panel_was_seated_with_after_a_proposal_is_named() -> None:
    proposed = _question(actions_required=[ACTION], compliance_deadline=ACTION["deadline"])
    dispute = _dispute(proposed)
    dispute.vote_steps = [_vote(3, _question().resolution_hash)]
    problem = proposal_problem(DISPUTE, dispute)
    assert problem is not None
    assert problem.code == "ledger_entries.not_on_proposal"
    assert problem.column == "record.details.vote.resolution_hash"


def test_a_proposal_whose_actions_no_longer_hash_to_its_stated_hash_is_named() -> None:
    proposed = _question(actions_required=[ACTION], compliance_deadline=ACTION["deadline"])
    dispute = _dispute(proposed)
    tampered = dict(dispute.proposals[0].details)
    tampered["question"] = {
        **tampered["question"],
        "proposal": {
            **tampered["question"]["proposal"],
            "actions_required": [{**ACTION, "action": "nothing"}],
        },
    }
    dispute.proposals = [SignedStep(2, None, tampered)]
    problem = proposal_problem(DISPUTE, dispute)
    assert problem is not None
    assert problem.column == "record.details.resolution_hash"


def test_a_decided_record_without_the_proposals_actions_is_named() -> None:
    proposed = _question(actions_required=[ACTION], compliance_deadline=ACTION["deadline"])
    dispute = _dispute(proposed)
    dispute.resolved = SignedStep(
        4,
        None,
        {
            "resolution": {
                "panel": {"members": []},
                "outcome": {
                    "description": "billing keeps it",
                    "actions_required": [],
                    "compliance_verification_method": "audit_chain_review",
                    "compliance_deadline": ACTION["deadline"],
                },
                "precedents_applied": [],
            }
        },
    )
    problem = proposal_problem(DISPUTE, dispute)
    assert problem is not None
    assert problem.column == "record.details.resolution.outcome.actions_required"
