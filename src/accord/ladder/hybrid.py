"""Strategy 4: hybrid (recommended for production) — arguments, a review agent, then people.

Each group's lead agent argues once (capped, as in the debate). The conflict review agent
(``review_agent``, never a party) evaluates them with the neutral-judge prompt, asked twice
with the arguments swapped. Clear — the two verdicts agree on a party and the lower
confidence is at least ``clear_confidence`` — decides automatically, with dissent. Ambiguous
— verdicts that disagree, "neither", low confidence, or a review agent that failed after one
retry — goes to the human approval queue with both positions and the review agent's
analysis (``escalate_on_ambiguity``, default true), or escalates when that is false.
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
    escalated,
    metered,
    parse_settings,
    queue_for_people,
    usage_fields,
)
from accord.ladder.protocol import ResolverBase
from accord.ladder.strategy_context import StrategyContext
from accord.ladder.strategy_types import Conflict, StrategyOutcome


class HybridSettings(StrategySettings):
    """``conflict_resolution.hybrid`` settings."""

    review_agent: str = Field(default="agent:conflict-reviewer", min_length=1)
    max_tokens_per_argument: int = Field(default=300, ge=1)
    judge_max_tokens: int = Field(default=400, ge=1)
    clear_confidence: float = Field(default=0.7, ge=0.0, le=1.0)
    escalate_on_ambiguity: bool = True


class HybridStrategy(ResolverBase):
    """Capped arguments → review agent → decided when clear, people when ambiguous."""

    name = "hybrid"
    settings_model = HybridSettings

    async def resolve(self, dispute: Conflict, ctx: StrategyContext) -> StrategyOutcome:
        settings = parse_settings(HybridSettings, self.name, ctx.settings)
        reviewer = settings.review_agent
        if reviewer in dispute.parties:
            return escalated(self.name, f"the review agent {reviewer} is a party; it never is")
        model, meter = metered(ctx)
        if model is None:
            return escalated(self.name, "no language model configured")
        arguments = await gather_arguments(model, dispute, settings.max_tokens_per_argument)
        attempt = await ask_judge_with_retry(
            model, dispute, judge_material(dispute, arguments), settings.judge_max_tokens
        )
        notes = (*arguments.notes, *attempt.notes)
        verdict = attempt.verdict
        reasoning = None if verdict is None else verdict_reasoning(verdict)
        fields: dict[str, Any] = {
            "arguments": dict(arguments.by_party),
            "rounds": 1,
            "judge_reasoning": reasoning,
            "notes": notes,
            **usage_fields(meter),
        }
        if verdict is None:
            ambiguity = f"the review agent {reviewer} failed after one retry: {attempt.failure}"
        elif not verdict.consistent:
            ambiguity = (
                f"the review agent's verdicts disagree under the swap "
                f"({verdict.first.winner} / {verdict.second.winner})"
            )
        elif verdict.winner is None or verdict.winner not in dispute.parties:
            ambiguity = "the review agent found no answer acceptable"
        elif (verdict.confidence or 0.0) < settings.clear_confidence:
            ambiguity = (
                f"the review agent's confidence {verdict.confidence or 0.0:.2f} is below "
                f"clear_confidence {settings.clear_confidence:.2f}"
            )
        else:
            confidence = verdict.confidence or 0.0
            winner = verdict.winner
            return StrategyOutcome(
                strategy=self.name,
                status="decided",
                group=dispute.group_of(winner),
                winner=winner,
                confidence=confidence,
                reasoning=f"the review agent {reviewer} found the case clear for {winner} "
                f"(confidence {confidence:.2f})",
                decided_by=reviewer,
                **fields,
            )
        if not settings.escalate_on_ambiguity:
            return escalated(self.name, f"ambiguous: {ambiguity}", **fields)
        review = reasoning or "(no review)"
        shown = "\n".join(f"{party}: {text}" for party, text in arguments.by_party.items())
        analysis = (
            f"{base_analysis(dispute, settings.analysis)}\n"
            f"Review agent {reviewer}: {review}\nArguments:\n{shown}"
        )
        return await queue_for_people(
            self.name, dispute, ctx, reason=f"ambiguous: {ambiguity}", analysis=analysis, **fields
        )
