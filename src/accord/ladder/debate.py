"""Strategy 2: structured debate + judge.

Each answer group's lead agent presents ONE argument, capped at ``max_tokens_per_argument``
tokens. A neutral judge — ``judge: manager`` (the parties' lowest common manager), ``ceo`` (the
member with no manager above every party) or a named arbitrator id — decides, answering
strict JSON, asked twice with the arguments swapped. The judge is never a party: a judge who
is one escalates. A human judge gets the case through the approval queue.

Rounds (seed 002 §5, §7): verdicts that disagree under the swap are a tie and start another
round, at most ``max_rounds`` (≤ 2); still tied → escalated. A judge call that fails is retried
once, then the case escalates with the reason. A verdict below ``min_confidence`` escalates;
so does "neither". Arguments and the judge's reasoning go into the outcome and the dissent.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from accord.ladder._debate_rounds import (
    ask_judge_with_retry,
    gather_arguments,
    judge_material,
    verdict_reasoning,
)
from accord.ladder._strategy_support import (
    StrategySettings,
    base_analysis,
    common_manager,
    escalated,
    metered,
    parse_settings,
    queue_for_people,
    top_of,
    usage_fields,
)
from accord.ladder.protocol import ResolverBase
from accord.ladder.strategy_context import StrategyContext
from accord.ladder.strategy_types import Conflict, StrategyOutcome

MAX_ROUNDS = 2
"""Seed 002 §7: at most two arbitration rounds."""


class DebateSettings(StrategySettings):
    """``conflict_resolution.debate`` settings."""

    judge: str = Field(default="manager", min_length=1)
    max_tokens_per_argument: int = Field(default=300, ge=1)
    judge_max_tokens: int = Field(default=400, ge=1)
    max_rounds: int = Field(default=MAX_ROUNDS, ge=1, le=MAX_ROUNDS)
    min_confidence: float = Field(default=0.5, ge=0.0, le=1.0)


class DebateStrategy(ResolverBase):
    """One round of capped arguments, then a neutral judge, at most two judging rounds."""

    name = "debate"
    settings_model = DebateSettings

    async def resolve(self, dispute: Conflict, ctx: StrategyContext) -> StrategyOutcome:
        settings = parse_settings(DebateSettings, self.name, ctx.settings)
        judge, problem = self._judge(dispute, ctx, settings.judge)
        if judge is None:
            return escalated(self.name, problem)
        if judge in dispute.parties:
            return escalated(self.name, f"the judge {judge} is a party; a judge never is")
        model, meter = metered(ctx)
        if model is None:
            return escalated(self.name, "no language model configured")
        arguments = await gather_arguments(model, dispute, settings.max_tokens_per_argument)
        notes = list(arguments.notes)

        def fields(rounds: int, reasoning: str | None = None) -> dict[str, Any]:
            return {
                "arguments": dict(arguments.by_party),
                "rounds": rounds,
                "judge_reasoning": reasoning,
                "notes": tuple(notes),
                **usage_fields(meter),
            }

        if ctx.org is not None and judge in ctx.org and ctx.org.agent(judge).is_human:
            analysis = base_analysis(dispute, settings.analysis)
            shown = "\n".join(f"{party}: {text}" for party, text in arguments.by_party.items())
            return await queue_for_people(
                self.name,
                dispute,
                ctx,
                reason=f"the judge {judge} is a human",
                analysis=f"{analysis}\nArguments:\n{shown}",
                **fields(0),
            )
        material = judge_material(dispute, arguments)
        reasoning: str | None = None
        for round_number in range(1, settings.max_rounds + 1):
            attempt = await ask_judge_with_retry(
                model, dispute, material, settings.judge_max_tokens
            )
            notes.extend(attempt.notes)
            if attempt.verdict is None:
                why = f"the judge {judge} failed after one retry: {attempt.failure}"
                return escalated(self.name, why, **fields(round_number, reasoning))
            verdict = attempt.verdict
            reasoning = verdict_reasoning(verdict)
            if not verdict.consistent:
                notes.append(
                    f"round {round_number}: verdicts disagree under the swap "
                    f"({verdict.first.winner} / {verdict.second.winner}): a tie"
                )
                continue
            confidence = verdict.confidence or 0.0
            if verdict.winner is None or verdict.winner not in dispute.parties:
                why = f"the judge {judge} found no answer acceptable"
                return escalated(self.name, why, **fields(round_number, reasoning))
            if confidence < settings.min_confidence:
                why = (
                    f"the judge's confidence {confidence:.2f} is below "
                    f"min_confidence {settings.min_confidence:.2f}"
                )
                return escalated(self.name, why, **fields(round_number, reasoning))
            group = dispute.group_of(verdict.winner)
            return StrategyOutcome(
                strategy=self.name,
                status="decided",
                group=group,
                winner=verdict.winner,
                confidence=confidence,
                reasoning=f"the judge {judge} decided for {verdict.winner} in round "
                f"{round_number} (confidence {confidence:.2f})",
                decided_by=judge,
                **fields(round_number, reasoning),
            )
        why = f"still tied after {settings.max_rounds} round(s): the judge is inconsistent"
        return escalated(self.name, why, **fields(settings.max_rounds, reasoning))

    @staticmethod
    def _judge(dispute: Conflict, ctx: StrategyContext, setting: str) -> tuple[str | None, str]:
        """The judge's id, or None and why there is none."""
        if setting == "manager":
            if ctx.org is None:
                return None, "judge 'manager' needs an org chart"
            missing = [agent for agent in dispute.parties if agent not in ctx.org]
            if missing:
                return None, f"not in the org chart: {', '.join(missing)}"
            manager = common_manager(ctx.org, dispute.parties)
            return manager, "the parties have no common manager to judge"
        if setting == "ceo":
            if ctx.org is None:
                return None, "judge 'ceo' needs an org chart"
            missing = [agent for agent in dispute.parties if agent not in ctx.org]
            if missing:
                return None, f"not in the org chart: {', '.join(missing)}"
            return top_of(ctx.org, dispute.parties), "the parties have no single top of the org"
        return setting, ""
