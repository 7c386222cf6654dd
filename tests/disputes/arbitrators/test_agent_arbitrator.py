"""Arbitrators that are agents (R14): different judges, each voting on its own with positions
swapped, token capped; their signed votes count like any other."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from accord.clock import FrozenClock
from accord.dcp07.panels import (
    PanelBallot,
    PanelDecision,
    PanelFormation,
    PanelQuestion,
    PanelRefused,
    PartyPosition,
    ProposedResolution,
    tally,
    verify_vote,
)
from accord.disputes.arbitrators import AgentArbitrator, vote_independently
from accord.llm import ModelOverCap, ModelRequest, ModelTimeout, ScriptedModel
from tests.dcp07.panels._builders import DISPUTE, NOW, formed, key_of, keys, refused

QUESTION = PanelQuestion(
    dispute_id=DISPUTE,
    question="Who keeps the GPU reservation for the nightly batch?",
    positions=(
        PartyPosition(agent_id="agent:billing", argument="We booked it first; see ticket 12."),
        PartyPosition(agent_id="agent:audit", argument="Audit jobs have a legal deadline."),
    ),
    proposal=ProposedResolution(favours="agent:billing", description="billing keeps the slot"),
)


def verdict(winner: str, reasoning: str = "the booking is documented") -> dict[str, Any]:
    return {"winner": winner, "reasoning": reasoning, "confidence": 0.8}


def for_party(party: str, reasoning: str = "the booking is documented") -> Any:
    """A scripted judge that names ``party`` whatever letter it was shown under."""

    def answer(request: ModelRequest) -> dict[str, Any]:
        shown = request.messages[-1].content
        billing_first = shown.index("ticket 12") < shown.index("legal deadline")
        letter_of = {
            "agent:billing": "A" if billing_first else "B",
            "agent:audit": "B" if billing_first else "A",
        }
        return verdict(letter_of[party], reasoning)

    return answer


def arbitrator(formation: PanelFormation, index: int, *steps: Any, **kw: Any) -> AgentArbitrator:
    agent_id = formation.member_ids[index]
    model = ScriptedModel(list(steps), name=f"judge-{index}")
    return AgentArbitrator(agent_id, model, key_of(agent_id), **kw)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture
def formation() -> PanelFormation:
    return formed()


def test_r14_an_agent_arbitrator_approves_when_both_swapped_verdicts_back_the_proposal(
    formation: PanelFormation,
) -> None:
    judge = arbitrator(formation, 0, for_party("agent:billing"), for_party("agent:billing"))
    result = run(judge.deliberate(QUESTION, formation, clock=FrozenClock(NOW)))
    assert result.vote.vote == "approve"
    assert result.verdict.consistent
    assert result.vote.resolution_hash == QUESTION.resolution_hash
    verify_vote(result.vote, key_of(formation.member_ids[0]).public_key)


def test_r14_positions_are_swapped_between_the_two_calls(formation: PanelFormation) -> None:
    judge = arbitrator(formation, 0, for_party("agent:billing"), for_party("agent:billing"))
    run(judge.deliberate(QUESTION, formation, clock=FrozenClock(NOW)))
    model = judge.model
    assert isinstance(model, ScriptedModel)
    first, second = (r.messages[-1].content for r in model.requests)
    assert first.index("ticket 12") < first.index("legal deadline")
    assert second.index("legal deadline") < second.index("ticket 12")
    assert "agent:billing" not in first  # the judge sees positional letters only
    assert "billing keeps the slot" not in first  # nor the resolution put to the vote


def test_r14_a_judge_that_always_picks_the_first_position_dissents(
    formation: PanelFormation,
) -> None:
    judge = arbitrator(formation, 0, verdict("A"), verdict("A"))
    result = run(judge.deliberate(QUESTION, formation, clock=FrozenClock(NOW)))
    assert not result.verdict.consistent
    assert result.vote.vote == "dissent"
    assert "disagree" in result.reasoning


def test_r14_a_judge_that_finds_for_the_other_party_dissents(formation: PanelFormation) -> None:
    judge = arbitrator(
        formation, 0, for_party("agent:audit", "deadline"), for_party("agent:audit", "deadline")
    )
    result = run(judge.deliberate(QUESTION, formation, clock=FrozenClock(NOW)))
    assert result.vote.vote == "dissent"
    assert "agent:audit" in result.reasoning


def test_r14_every_model_call_is_token_capped(formation: PanelFormation) -> None:
    judge = arbitrator(formation, 0, for_party("agent:billing"), "x" * 4000, max_tokens=64)
    with pytest.raises(ModelOverCap):
        run(judge.deliberate(QUESTION, formation, clock=FrozenClock(NOW)))
    model = judge.model
    assert isinstance(model, ScriptedModel)
    assert all(r.max_tokens == 64 for r in model.requests)


def test_r14_a_panel_of_different_judges_votes_independently_and_is_tallied(
    formation: PanelFormation,
) -> None:
    judges = [
        arbitrator(
            formation, 0, for_party("agent:billing", "r0"), for_party("agent:billing", "r0")
        ),
        arbitrator(formation, 1, for_party("agent:audit", "r1"), for_party("agent:audit", "r1")),
        arbitrator(
            formation, 2, for_party("agent:billing", "r2"), for_party("agent:billing", "r2")
        ),
    ]
    deliberation = run(vote_independently(judges, QUESTION, formation, clock=FrozenClock(NOW)))
    results = deliberation.votes
    assert deliberation.failures == ()
    assert [r.vote.vote for r in results] == ["approve", "dissent", "approve"]
    for judge in judges:  # nobody saw another member's reasoning
        model = judge.model
        assert isinstance(model, ScriptedModel)
        assert len(model.requests) == 2
        prompts = " ".join(m.content for r in model.requests for m in r.messages)
        assert not {"r0", "r1", "r2"} & set(prompts.split())
    ballot = PanelBallot(formation=formation, resolution_hash=QUESTION.resolution_hash)
    for result in results:
        ballot = ballot.cast(result.vote, member_keys=keys(formation), now=NOW)
    decided = tally(ballot, now=NOW)
    assert decided.decision is PanelDecision.BINDING
    assert decided.votes_against == 1


def test_r14_judges_sharing_one_model_are_not_independent(formation: PanelFormation) -> None:
    shared = ScriptedModel([], name="same")
    judges = [AgentArbitrator(a, shared, key_of(a)) for a in formation.member_ids]
    with pytest.raises(PanelRefused) as excinfo:
        run(vote_independently(judges, QUESTION, formation, clock=FrozenClock(NOW)))
    refused(excinfo, "panels.shared_judge", "R14")


def test_r14_an_arbitrator_outside_the_panel_cannot_deliberate(formation: PanelFormation) -> None:
    outsider = AgentArbitrator("arb:outsider", ScriptedModel([]), key_of("arb:outsider"))
    with pytest.raises(PanelRefused) as excinfo:
        run(outsider.deliberate(QUESTION, formation, clock=FrozenClock(NOW)))
    refused(excinfo, "panels.not_a_member", "R14")


def test_r14_the_resolution_put_to_the_vote_favours_a_party() -> None:
    with pytest.raises(ValueError, match="favours one of the parties"):
        PanelQuestion.model_validate(
            {**QUESTION.model_dump(), "proposal": {"favours": "agent:x", "description": "d"}}
        )


def test_r14_a_member_whose_model_fails_casts_no_vote_and_the_others_still_vote(
    formation: PanelFormation,
) -> None:
    judges = [
        arbitrator(formation, 0, for_party("agent:billing"), for_party("agent:billing")),
        arbitrator(formation, 1, ModelTimeout("the provider did not answer")),
        arbitrator(formation, 2, for_party("agent:billing"), for_party("agent:billing")),
    ]
    deliberation = run(vote_independently(judges, QUESTION, formation, clock=FrozenClock(NOW)))
    assert [v.vote.agent_id for v in deliberation.votes] == [
        formation.member_ids[0],
        formation.member_ids[2],
    ]
    (failure,) = deliberation.failures
    assert (failure.agent_id, failure.code) == (formation.member_ids[1], "llm.timeout")
