"""Arbitrators that are agents: each panel member votes through its own ``LanguageModel``.

A member judges the parties' positions with the neutral judge **twice, positions swapped**
(:func:`accord.llm.swap.judge_with_swap`: the judge sees positional letters only, so a judge
that favours whoever comes first contradicts itself). It does not see the resolution put to the
vote, nor any other member's vote: it forms its own view, then

* **approves** when both verdicts agree and name the party the proposed resolution favours;
* **dissents** otherwise (another winner, ``neither``, or verdicts that disagree — an
  inconsistent judge does not lend its weight to the proposal).

Every call is capped at ``max_tokens`` (two calls per vote). The reasoning (the decision line
and both verdicts' reasoning) is returned with the signed vote, which carries its hash.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from accord.clock import Clock
from accord.crypto.ed25519 import Ed25519Signer
from accord.dcp07.panels.formation import PanelFormation
from accord.dcp07.panels.question import PanelQuestion
from accord.dcp07.panels.refusals import PanelRefused
from accord.dcp07.panels.votes import PanelVote, VoteChoice, cast_vote
from accord.llm.errors import ModelError
from accord.llm.protocol import LanguageModel
from accord.llm.swap import SwapVerdict, judge_with_swap

DEFAULT_MAX_TOKENS = 512


class ArbitratorVote(BaseModel):
    """A member's signed vote, the reasoning it hashes, and the two verdicts behind it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    vote: PanelVote
    reasoning: str
    verdict: SwapVerdict


class AgentArbitrator:
    """A panel member that is an agent: its id, its own model, its own signing key."""

    def __init__(
        self,
        agent_id: str,
        model: LanguageModel,
        signer: Ed25519Signer,
        *,
        max_tokens: int = DEFAULT_MAX_TOKENS,
    ) -> None:
        if max_tokens < 1:
            raise ValueError("max_tokens is at least 1")
        self.agent_id = agent_id
        self.model = model
        self.signer = signer
        self.max_tokens = max_tokens

    def __repr__(self) -> str:
        return f"AgentArbitrator(agent_id={self.agent_id!r}, model={self.model.name!r})"

    async def deliberate(
        self, question: PanelQuestion, formation: PanelFormation, *, clock: Clock
    ) -> ArbitratorVote:
        """Judge the positions (swapped), decide approve or dissent, and sign the vote."""
        _require_member(self, formation, question)
        arguments = [(p.agent_id, p.argument) for p in question.positions]
        verdict = await judge_with_swap(
            self.model,
            question.question,
            arguments,
            max_tokens=self.max_tokens,
            case_id=question.dispute_id,
        )
        choice, why = _decide(verdict, question.proposal.favours)
        reasoning = "\n".join(
            [
                why,
                f"verdict 1 ({verdict.first.winner}): {verdict.first.reasoning}",
                f"verdict 2, positions swapped ({verdict.second.winner}): "
                f"{verdict.second.reasoning}",
            ]
        )
        vote = cast_vote(
            dispute_id=formation.dispute_id,
            panel_id=formation.panel_id,
            agent_id=self.agent_id,
            vote=choice,
            resolution_hash=question.resolution_hash,
            reasoning=reasoning,
            at=clock.now(),
            signer=self.signer,
        )
        return ArbitratorVote(vote=vote, reasoning=reasoning, verdict=verdict)


class ArbitratorFailure(BaseModel):
    """A member whose model failed: it casts no vote (absent at the tally), and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str
    code: str
    message: str


class PanelDeliberation(BaseModel):
    """What the panel's agents answered: the votes cast, and the members whose model failed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    votes: tuple[ArbitratorVote, ...]
    failures: tuple[ArbitratorFailure, ...]


async def vote_independently(
    arbitrators: Sequence[AgentArbitrator],
    question: PanelQuestion,
    formation: PanelFormation,
    *,
    clock: Clock,
) -> PanelDeliberation:
    """Every arbitrator deliberates on its own (concurrently; none sees another's answer).

    A member whose model fails (any ``ModelError``: timeout, over cap, bad output) casts no
    vote and is listed in ``failures``; the others still vote. Refused (R14) when two
    arbitrators share an agent id or a model object: independent evaluation needs different
    judges.
    """
    ids = [a.agent_id for a in arbitrators]
    models = [id(a.model) for a in arbitrators]
    if len(set(ids)) != len(ids) or len(set(models)) != len(models):
        raise PanelRefused(
            "each panel member deliberates once, with its own model",
            code="panels.shared_judge",
            requirement="R14",
            field="arbitrators",
            rule="members evaluate independently: distinct members, distinct models",
        )
    for arbitrator in arbitrators:
        _require_member(arbitrator, formation, question)
    answers = await asyncio.gather(
        *(a.deliberate(question, formation, clock=clock) for a in arbitrators),
        return_exceptions=True,
    )
    votes: list[ArbitratorVote] = []
    failures: list[ArbitratorFailure] = []
    for arbitrator, answer in zip(arbitrators, answers, strict=True):
        if isinstance(answer, ModelError):
            failures.append(
                ArbitratorFailure(
                    agent_id=arbitrator.agent_id, code=answer.code, message=answer.message
                )
            )
        elif isinstance(answer, BaseException):
            raise answer
        else:
            votes.append(answer)
    return PanelDeliberation(votes=tuple(votes), failures=tuple(failures))


def _decide(verdict: SwapVerdict, favoured: str) -> tuple[VoteChoice, str]:
    if not verdict.consistent:
        return "dissent", "dissent: the two verdicts disagree once positions are swapped"
    if verdict.winner == favoured:
        return "approve", f"approve: both verdicts find for {favoured}, as the resolution does"
    return "dissent", f"dissent: both verdicts find for {verdict.winner}, not {favoured}"


def _require_member(
    arbitrator: AgentArbitrator, formation: PanelFormation, question: PanelQuestion
) -> None:
    if not formation.is_member(arbitrator.agent_id):
        raise PanelRefused(
            f"{arbitrator.agent_id} is not a member of {formation.panel_id}",
            code="panels.not_a_member",
            requirement="R14",
            field="agent_id",
            rule="only panel members vote",
            agent_id=arbitrator.agent_id,
        )
    if question.dispute_id != formation.dispute_id:
        raise PanelRefused(
            f"the question is about {question.dispute_id}, the panel sits on "
            f"{formation.dispute_id}",
            code="panels.wrong_panel",
            requirement="R14",
            field="dispute_id",
            rule="a panel votes on its own dispute",
        )
