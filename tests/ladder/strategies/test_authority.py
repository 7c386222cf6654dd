"""Strategy 1: the hierarchy decides, the lowest common manager settles ties and cross-branch."""

from __future__ import annotations

import pytest

from accord.errors import ValidationError
from accord.ladder import AuthorityStrategy

from ._builders import (
    FakeApprovals,
    FakeDecisionPort,
    context,
    org,
    pos,
    scripted,
    two_sides,
)
from ._builders import dispute as make_dispute

pytestmark = pytest.mark.anyio

AUTHORITY = AuthorityStrategy()


async def test_the_side_of_the_more_senior_party_wins_without_any_model_call() -> None:
    model = scripted()
    case = two_sides("agent:dev-1", "agent:dev-senior")

    outcome = await AUTHORITY.resolve(case, context(org_chart=org(), model=model))

    assert outcome.status == "decided"
    assert outcome.group == case.group_of("agent:dev-senior")
    assert outcome.winner == "agent:dev-senior"
    assert outcome.decided_by == "agent:dev-senior"
    assert outcome.reasoning == "agent:dev-senior is the most senior party (senior)"
    assert outcome.confidence == 0.75
    assert (outcome.model_calls, outcome.tokens_in, outcome.tokens_out) == (0, 0, 0)
    assert model.requests == []


async def test_equal_seniority_in_one_department_asks_the_manager_through_the_port() -> None:
    port = FakeDecisionPort(answer="1450")
    case = two_sides()

    outcome = await AUTHORITY.resolve(case, context(org_chart=org(), port=port))

    assert port.asked == [("agent:eng-head", ("1200", "1450"))]
    assert outcome.status == "decided"
    assert outcome.winner == "agent:dev-2"
    assert outcome.decided_by == "agent:eng-head"
    assert "equal seniority" in outcome.reasoning


async def test_equal_seniority_escalates_when_the_settings_say_so() -> None:
    port = FakeDecisionPort(answer="1450")
    ctx = context(org_chart=org(), port=port, settings={"same_level": "escalate"})

    outcome = await AUTHORITY.resolve(two_sides(), ctx)

    assert outcome.status == "escalated"
    assert outcome.escalation_reason == "the most senior parties are of equal seniority"
    assert port.asked == []


async def test_a_cross_department_conflict_is_decided_by_the_lowest_common_manager() -> None:
    port = FakeDecisionPort(answer="1200")
    case = two_sides("agent:dev-senior", "agent:billing")

    outcome = await AUTHORITY.resolve(case, context(org_chart=org(), port=port))

    assert port.asked == [("agent:coo", ("1200", "1450"))]
    assert outcome.status == "decided"
    assert outcome.winner == "agent:dev-senior"
    assert outcome.decided_by == "agent:coo"
    assert outcome.reasoning.startswith("cross-department conflict")


async def test_cross_department_seniority_can_be_configured_to_decide_directly() -> None:
    port = FakeDecisionPort(answer="1450")
    ctx = context(org_chart=org(), port=port, settings={"cross_department": "seniority"})

    outcome = await AUTHORITY.resolve(two_sides("agent:dev-senior", "agent:billing"), ctx)

    assert outcome.decided_by == "agent:dev-senior"
    assert port.asked == []


async def test_a_human_lowest_common_manager_sends_the_case_to_the_approval_queue() -> None:
    port = FakeDecisionPort(answer="1200")
    approvals = FakeApprovals()
    case = two_sides("agent:design", "agent:billing")

    outcome = await AUTHORITY.resolve(
        case, context(org_chart=org(), port=port, approvals=approvals)
    )

    assert outcome.status == "queued"
    assert outcome.approval_item_id == "item-1"
    assert "human:ceo is a human" in (outcome.escalation_reason or "")
    assert port.asked == []
    assert approvals.items[0]["options"] == ("1200", "1450")


@pytest.mark.parametrize(
    ("port", "said"),
    [
        (FakeDecisionPort(answer=None), "did not answer"),
        (FakeDecisionPort(answer="1300"), "answered '1300', not an option"),
        (FakeDecisionPort(error=ConnectionError("down")), "did not answer"),
    ],
)
async def test_a_silent_unreachable_or_invalid_manager_answer_is_queued_for_people(
    port: FakeDecisionPort, said: str
) -> None:
    approvals = FakeApprovals()

    outcome = await AUTHORITY.resolve(
        two_sides(), context(org_chart=org(), port=port, approvals=approvals)
    )

    assert outcome.status == "queued"
    assert (
        outcome.escalation_reason
        == f"equal seniority; the lowest common manager agent:eng-head {said}"
    )
    assert len(approvals.items) == 1


async def test_without_a_decision_port_the_manager_cannot_be_asked_and_people_decide() -> None:
    approvals = FakeApprovals()

    outcome = await AUTHORITY.resolve(two_sides(), context(org_chart=org(), approvals=approvals))

    assert outcome.status == "queued"
    assert "no decision port" in (outcome.escalation_reason or "")


async def test_parties_without_a_common_manager_are_queued_for_people() -> None:
    approvals = FakeApprovals()
    case = two_sides("agent:lab", "agent:dev-1")

    outcome = await AUTHORITY.resolve(case, context(org_chart=org(), approvals=approvals))

    assert outcome.status == "queued"
    assert (
        outcome.escalation_reason
        == "cross-department conflict (different branches); no common manager"
    )
    assert "Why people decide" in approvals.items[0]["analysis"]


async def test_without_an_approval_queue_a_case_for_people_escalates_instead() -> None:
    outcome = await AUTHORITY.resolve(
        two_sides("agent:lab", "agent:dev-1"), context(org_chart=org())
    )

    assert outcome.status == "escalated"
    assert (outcome.escalation_reason or "").startswith("no approval queue configured")


async def test_agents_missing_from_the_org_chart_escalate_and_are_named() -> None:
    outcome = await AUTHORITY.resolve(
        two_sides("agent:ghost", "agent:dev-1"), context(org_chart=org())
    )

    assert outcome.status == "escalated"
    assert outcome.escalation_reason == "not in the org chart: agent:ghost"


async def test_without_an_org_chart_authority_escalates() -> None:
    outcome = await AUTHORITY.resolve(two_sides(), context())

    assert outcome.escalation_reason == "no org chart configured"


async def test_a_groups_seniority_is_that_of_its_most_senior_member() -> None:
    case = make_dispute(
        pos("agent:dev-1", 1200, 0.9),
        pos("agent:dev-senior", 1200, 0.5),
        pos("agent:dev-2", 1450, 0.8),
    )

    outcome = await AUTHORITY.resolve(case, context(org_chart=org()))

    assert outcome.group == 0
    assert outcome.winner == "agent:dev-1"  # the group's lead: its most confident agent
    assert outcome.decided_by == "agent:dev-senior"


async def test_unknown_settings_are_refused_with_the_key_named() -> None:
    with pytest.raises(ValidationError) as raised:
        await AUTHORITY.resolve(two_sides(), context(org_chart=org(), settings={"sam_level": 1}))

    assert raised.value.code == "strategies.invalid_settings"
    assert raised.value.context["field"] == "sam_level"


async def test_the_overruled_party_gets_a_dissent_draft_with_its_own_reasoning() -> None:
    case = two_sides("agent:dev-1", "agent:dev-senior")
    outcome = await AUTHORITY.resolve(case, context(org_chart=org()))

    drafts = AUTHORITY.log_dissent(case, outcome)

    assert [d.agent_id for d in drafts] == ["agent:dev-1"]
    assert drafts[0].reasoning == "sum of the lines"
    assert drafts[0].resolution_reasoning == outcome.reasoning
    assert drafts[0].strategy == "authority"
    assert drafts[0].position == case.position_of("agent:dev-1")


async def test_no_dissent_is_drafted_for_an_undecided_case() -> None:
    case = two_sides()
    outcome = await AUTHORITY.resolve(case, context())

    assert AUTHORITY.log_dissent(case, outcome) == ()
