"""Strategy 2: one round of capped arguments, then a neutral judge — never a party."""

from __future__ import annotations

import pytest

from accord.errors import ValidationError
from accord.ladder import DebateStrategy
from accord.llm import ModelBadOutput, ModelTimeout, TokenUsage

from ._builders import (
    FakeApprovals,
    FixedUsageModel,
    context,
    for_first_group,
    for_second_group,
    org,
    scripted,
    tied,
    two_sides,
    verdict,
)

pytestmark = pytest.mark.anyio

DEBATE = DebateStrategy()
ARBITER = {"judge": "agent:arbiter"}


async def test_each_side_argues_once_within_the_token_cap_and_the_judge_decides() -> None:
    model = scripted("Lines sum to 1200.", "Shipping adds 250.", *for_first_group())
    ctx = context(model=model, settings={**ARBITER, "max_tokens_per_argument": 120})

    outcome = await DEBATE.resolve(two_sides(), ctx)

    arguments = [r for r in model.requests if r.purpose == "argument"]
    assert [r.max_tokens for r in arguments] == [120, 120]
    assert [r.purpose for r in model.requests] == ["argument", "argument", "judge", "judge"]
    assert outcome.status == "decided"
    assert outcome.winner == "agent:dev-1"
    assert outcome.group == 0
    assert outcome.decided_by == "agent:arbiter"
    assert outcome.confidence == 0.9
    assert outcome.rounds == 1
    assert outcome.arguments == {
        "agent:dev-1": "Lines sum to 1200.",
        "agent:dev-2": "Shipping adds 250.",
    }
    assert outcome.judge_reasoning == "the sum is right"


async def test_the_shared_manager_judges_by_default() -> None:
    model = scripted("a", "b", *for_second_group())

    outcome = await DEBATE.resolve(two_sides(), context(org_chart=org(), model=model))

    assert outcome.decided_by == "agent:eng-head"
    assert outcome.winner == "agent:dev-2"


async def test_a_judge_setting_naming_a_party_escalates_before_any_model_call() -> None:
    model = scripted()

    outcome = await DEBATE.resolve(
        two_sides(), context(model=model, settings={"judge": "agent:dev-1"})
    )

    assert outcome.status == "escalated"
    assert outcome.escalation_reason == "the judge agent:dev-1 is a party; a judge never is"
    assert model.requests == []


async def test_a_manager_judge_that_manages_a_party_is_never_that_party() -> None:
    model = scripted("a", "b", *for_first_group())

    outcome = await DEBATE.resolve(
        two_sides("agent:eng-head", "agent:dev-1"), context(org_chart=org(), model=model)
    )

    assert outcome.decided_by == "agent:coo"


async def test_a_human_ceo_as_judge_sends_the_debate_to_the_approval_queue() -> None:
    model = scripted("Lines sum to 1200.", "Shipping adds 250.")
    approvals = FakeApprovals()
    ctx = context(org_chart=org(), model=model, approvals=approvals, settings={"judge": "ceo"})

    outcome = await DEBATE.resolve(two_sides(), ctx)

    assert outcome.status == "queued"
    assert outcome.escalation_reason == "the judge human:ceo is a human"
    assert "agent:dev-2: Shipping adds 250." in approvals.items[0]["analysis"]
    assert outcome.model_calls == 2


async def test_verdicts_inconsistent_under_the_swap_are_a_tie_and_start_a_second_round() -> None:
    model = scripted("a", "b", *tied(), *for_second_group())

    outcome = await DEBATE.resolve(two_sides(), context(model=model, settings=ARBITER))

    assert outcome.status == "decided"
    assert outcome.rounds == 2
    assert outcome.winner == "agent:dev-2"
    assert any("round 1: verdicts disagree" in note for note in outcome.notes)


async def test_still_tied_after_two_rounds_escalates() -> None:
    model = scripted("a", "b", *tied(), *tied())

    outcome = await DEBATE.resolve(two_sides(), context(model=model, settings=ARBITER))

    assert outcome.status == "escalated"
    assert outcome.rounds == 2
    assert outcome.model_calls == 6
    assert outcome.escalation_reason == ("still tied after 2 round(s): the judge is inconsistent")
    assert outcome.judge_reasoning is not None


async def test_one_round_is_enough_when_max_rounds_is_one() -> None:
    model = scripted("a", "b", *tied())

    outcome = await DEBATE.resolve(
        two_sides(), context(model=model, settings={**ARBITER, "max_rounds": 1})
    )

    assert outcome.status == "escalated"
    assert outcome.rounds == 1


async def test_more_than_two_rounds_is_refused_as_a_setting() -> None:
    with pytest.raises(ValidationError) as raised:
        await DEBATE.resolve(
            two_sides(), context(model=scripted(), settings={**ARBITER, "max_rounds": 3})
        )

    assert raised.value.context["field"] == "max_rounds"


async def test_a_malformed_judge_answer_is_retried_once_then_escalates_with_the_reason() -> None:
    model = scripted("a", "b", "I think A wins", "still not JSON")

    outcome = await DEBATE.resolve(two_sides(), context(model=model, settings=ARBITER))

    assert outcome.status == "escalated"
    assert outcome.escalation_reason is not None
    assert outcome.escalation_reason.startswith("the judge agent:arbiter failed after one retry")
    assert "llm.bad_json" in outcome.escalation_reason
    assert outcome.model_calls == 4
    assert outcome.winner is None


async def test_a_malformed_answer_followed_by_a_good_one_decides() -> None:
    model = scripted("a", "b", "oops", *for_first_group())

    outcome = await DEBATE.resolve(two_sides(), context(model=model, settings=ARBITER))

    assert outcome.status == "decided"
    assert outcome.notes[0].startswith("judge attempt 1 failed: [llm.bad_json]")


async def test_a_judge_naming_a_non_party_is_retried_then_escalates() -> None:
    model = scripted("a", "b", verdict("C"), verdict("Z"))

    outcome = await DEBATE.resolve(two_sides(), context(model=model, settings=ARBITER))

    assert outcome.status == "escalated"
    assert "llm.judge_non_party" in (outcome.escalation_reason or "")


async def test_a_judge_timing_out_twice_escalates_with_the_timeout_recorded() -> None:
    model = scripted("a", "b", ModelTimeout("no answer in 30 s"), ModelTimeout("again"))

    outcome = await DEBATE.resolve(two_sides(), context(model=model, settings=ARBITER))

    assert outcome.status == "escalated"
    assert "[llm.timeout] again" in (outcome.escalation_reason or "")


async def test_a_judge_over_its_token_cap_escalates() -> None:
    long = verdict("A", reasoning="x" * 400)
    model = scripted("a", "b", long, long)

    outcome = await DEBATE.resolve(
        two_sides(), context(model=model, settings={**ARBITER, "judge_max_tokens": 20})
    )

    assert "llm.over_cap" in (outcome.escalation_reason or "")


async def test_a_party_whose_argument_fails_loses_its_slot_but_the_debate_goes_on() -> None:
    model = scripted("x" * 2000, "Shipping adds 250.", *for_second_group())

    outcome = await DEBATE.resolve(
        two_sides(), context(model=model, settings={**ARBITER, "max_tokens_per_argument": 50})
    )

    assert outcome.status == "decided"
    assert outcome.arguments["agent:dev-1"] == "(no argument)"
    assert outcome.notes[0].startswith("agent:dev-1 lost its argument slot: [llm.over_cap]")
    judged = model.requests[2].messages[-1].content
    assert "(no argument)" in judged
    assert "Answer: 1200" in judged


async def test_token_usage_and_calls_are_counted_exactly_failed_calls_included() -> None:
    malformed = ModelBadOutput(
        "not JSON", code="llm.bad_json", spent=TokenUsage(input_tokens=40, output_tokens=3)
    )
    inner = scripted(ModelTimeout("slow"), "b", malformed, *for_first_group())
    model = FixedUsageModel(inner, TokenUsage(input_tokens=100, output_tokens=7))

    outcome = await DEBATE.resolve(two_sides(), context(model=model, settings=ARBITER))

    # An argument timed out (no usage known), one argued (100/7), a malformed verdict still
    # spent 40/3, then two verdicts (100/7 each): 5 calls in all.
    assert outcome.model_calls == 5
    assert (outcome.tokens_in, outcome.tokens_out) == (340, 24)


async def test_tokens_a_failed_call_still_spent_are_counted() -> None:
    model = scripted("x" * 2000, "b", *for_first_group())

    outcome = await DEBATE.resolve(
        two_sides(), context(model=model, settings={**ARBITER, "max_tokens_per_argument": 50})
    )

    assert outcome.tokens_out >= 500  # the over-cap argument's 500 tokens count


async def test_a_confident_enough_judge_is_required() -> None:
    model = scripted("a", "b", *for_first_group(confidence=0.3))

    outcome = await DEBATE.resolve(two_sides(), context(model=model, settings=ARBITER))

    assert outcome.status == "escalated"
    assert outcome.escalation_reason == "the judge's confidence 0.30 is below min_confidence 0.50"


async def test_a_judge_finding_neither_answer_acceptable_escalates() -> None:
    model = scripted("a", "b", verdict("neither"), verdict("neither"))

    outcome = await DEBATE.resolve(two_sides(), context(model=model, settings=ARBITER))

    assert outcome.escalation_reason == "the judge agent:arbiter found no answer acceptable"


@pytest.mark.parametrize(
    ("settings", "with_org", "reason"),
    [
        ({"judge": "manager"}, False, "judge 'manager' needs an org chart"),
        ({"judge": "ceo"}, False, "judge 'ceo' needs an org chart"),
        ({"judge": "manager"}, True, "the parties have no common manager to judge"),
        ({"judge": "ceo"}, True, "the parties have no single top of the org"),
    ],
)
async def test_a_judge_that_cannot_be_found_escalates(
    settings: dict[str, str], with_org: bool, reason: str
) -> None:
    ctx = context(org_chart=org() if with_org else None, model=scripted(), settings=settings)

    outcome = await DEBATE.resolve(two_sides("agent:lab", "agent:dev-1"), ctx)

    assert outcome.escalation_reason == reason


@pytest.mark.parametrize("judge", ["manager", "ceo"])
async def test_a_party_missing_from_the_org_chart_leaves_no_judge(judge: str) -> None:
    ctx = context(org_chart=org(), model=scripted(), settings={"judge": judge})

    outcome = await DEBATE.resolve(two_sides("agent:ghost", "agent:dev-1"), ctx)

    assert outcome.escalation_reason == "not in the org chart: agent:ghost"


async def test_without_a_model_the_debate_escalates() -> None:
    outcome = await DEBATE.resolve(two_sides(), context(settings=ARBITER))

    assert outcome.escalation_reason == "no language model configured"


async def test_the_loser_dissents_with_its_argument_and_the_judges_reasoning() -> None:
    case = two_sides()
    model = scripted("Lines sum to 1200.", "Shipping adds 250.", *for_first_group())
    outcome = await DEBATE.resolve(case, context(model=model, settings=ARBITER))

    drafts = DEBATE.log_dissent(case, outcome)

    assert len(drafts) == 1
    assert drafts[0].agent_id == "agent:dev-2"
    assert drafts[0].reasoning == "Shipping adds 250."
    assert drafts[0].resolution_reasoning == "the sum is right"
    assert drafts[0].strategy == "debate"


async def test_both_verdicts_reasoning_is_kept_when_they_differ() -> None:
    model = scripted("a", "b", verdict("A", reasoning="ledger"), verdict("B", reasoning="sum"))

    outcome = await DEBATE.resolve(two_sides(), context(model=model, settings=ARBITER))

    assert outcome.judge_reasoning == "ledger\n(positions swapped) sum"
