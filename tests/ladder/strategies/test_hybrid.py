"""Strategy 4: arguments, a review agent, then decided when clear or people when ambiguous."""

from __future__ import annotations

import pytest

from accord.ladder import HybridStrategy
from accord.llm import ModelTimeout

from ._builders import (
    FakeApprovals,
    context,
    for_first_group,
    scripted,
    tied,
    two_sides,
    verdict,
)

pytestmark = pytest.mark.anyio

HYBRID = HybridStrategy()
REVIEWER = {"review_agent": "agent:reviewer"}


async def test_a_clear_review_decides_and_the_loser_dissents() -> None:
    case = two_sides()
    model = scripted("Lines sum to 1200.", "Shipping adds 250.", *for_first_group(0.8))

    outcome = await HYBRID.resolve(case, context(model=model, settings=REVIEWER))
    drafts = HYBRID.log_dissent(case, outcome)

    assert outcome.status == "decided"
    assert outcome.winner == "agent:dev-1"
    assert outcome.decided_by == "agent:reviewer"
    assert outcome.confidence == 0.8
    assert outcome.model_calls == 4
    assert [r.max_tokens for r in model.requests[:2]] == [300, 300]
    assert [d.agent_id for d in drafts] == ["agent:dev-2"]
    assert drafts[0].reasoning == "Shipping adds 250."
    assert drafts[0].resolution_reasoning == "the sum is right"
    assert drafts[0].strategy == "hybrid"


async def test_an_inconsistent_review_is_queued_with_the_reviewers_analysis() -> None:
    approvals = FakeApprovals()
    model = scripted("Lines sum to 1200.", "Shipping adds 250.", *tied())

    outcome = await HYBRID.resolve(
        two_sides(), context(model=model, approvals=approvals, settings=REVIEWER)
    )

    assert outcome.status == "queued"
    assert outcome.approval_item_id == "item-1"
    assert (outcome.escalation_reason or "").startswith("ambiguous: the review agent's verdicts")
    item = approvals.items[0]
    assert "Review agent agent:reviewer: A cites the ledger" in item["analysis"]
    assert "agent:dev-2: Shipping adds 250." in item["analysis"]
    assert "1450" in item["summary"]
    assert outcome.arguments["agent:dev-1"] == "Lines sum to 1200."


async def test_a_review_below_the_clear_confidence_is_ambiguous() -> None:
    approvals = FakeApprovals()
    model = scripted("a", "b", *for_first_group(0.6))

    outcome = await HYBRID.resolve(
        two_sides(), context(model=model, approvals=approvals, settings=REVIEWER)
    )

    assert outcome.status == "queued"
    assert outcome.escalation_reason == (
        "ambiguous: the review agent's confidence 0.60 is below clear_confidence 0.70"
    )


async def test_a_review_finding_neither_answer_acceptable_is_ambiguous() -> None:
    model = scripted("a", "b", verdict("neither"), verdict("neither"))

    outcome = await HYBRID.resolve(
        two_sides(), context(model=model, approvals=FakeApprovals(), settings=REVIEWER)
    )

    assert outcome.escalation_reason == "ambiguous: the review agent found no answer acceptable"


async def test_a_review_agent_failing_twice_leaves_the_case_to_people() -> None:
    approvals = FakeApprovals()
    model = scripted("a", "b", ModelTimeout("slow"), ModelTimeout("slow again"))

    outcome = await HYBRID.resolve(
        two_sides(), context(model=model, approvals=approvals, settings=REVIEWER)
    )

    assert outcome.status == "queued"
    assert "failed after one retry" in (outcome.escalation_reason or "")
    assert "(no review)" in approvals.items[0]["analysis"]


async def test_ambiguity_escalates_instead_when_escalate_on_ambiguity_is_false() -> None:
    approvals = FakeApprovals()
    model = scripted("a", "b", *tied())
    settings = {**REVIEWER, "escalate_on_ambiguity": False}

    outcome = await HYBRID.resolve(
        two_sides(), context(model=model, approvals=approvals, settings=settings)
    )

    assert outcome.status == "escalated"
    assert (outcome.escalation_reason or "").startswith("ambiguous:")
    assert approvals.items == []


async def test_a_review_agent_who_is_a_party_escalates_without_a_model_call() -> None:
    model = scripted()

    outcome = await HYBRID.resolve(
        two_sides(), context(model=model, settings={"review_agent": "agent:dev-2"})
    )

    assert outcome.escalation_reason == "the review agent agent:dev-2 is a party; it never is"
    assert model.requests == []


async def test_without_a_model_the_hybrid_escalates() -> None:
    outcome = await HYBRID.resolve(two_sides(), context())

    assert outcome.escalation_reason == "no language model configured"
