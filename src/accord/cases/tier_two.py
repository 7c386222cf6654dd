"""Beyond tier 1: run the policy's strategy on an escalated case and fold its outcome in.

A decided outcome settles the case at ``contextual_arbitration`` with the strategy's dissent;
a queued one (or one the strategy could not settle, when people are reachable) parks the case
at ``human_appeal`` with its approval item; anything else stays escalated with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from accord.cases.case import Case, SettleStatus
from accord.cases.lifecycle import Outcome, transition
from accord.cases.settle_on_winner import Dissenter, settle_on_winner
from accord.clock import Clock
from accord.conflicts import Severity, Tier
from accord.ladder import CRITICAL_TO_PEOPLE, TIER_ONE_RUNGS, RungAttempt, after_tier_one
from accord.ladder.policy import ResolutionPolicy, StrategyChoice
from accord.ladder.ports import AgentDecisionPort, ApprovalGateway
from accord.ladder.protocol import ConflictResolver
from accord.ladder.strategy_context import StrategyContext
from accord.ladder.strategy_types import Conflict, DissentDraft, StrategyOutcome
from accord.llm import LanguageModel
from accord.org import OrgChart
from accord.values import revised


@dataclass(frozen=True)
class TierTwo:
    """What the escalation path needs: the policy, how to find strategies, and the ports."""

    policy: ResolutionPolicy
    resolver_for: Callable[[str], ConflictResolver]
    run: Callable[[ConflictResolver, Conflict, StrategyContext], object]
    org: OrgChart | None = None
    model: LanguageModel | None = None
    decision_port: AgentDecisionPort | None = None
    approvals: ApprovalGateway | None = None


def analysis_of(case: Case) -> list[str]:
    """What tier 1 tried, in words, for the next tier and for people."""
    lines = [case.detection.description]
    lines += [
        f"{'tier 1 ' if a.rung in TIER_ONE_RUNGS else ''}{a.rung}: {a.detail}"
        for a in case.attempts
    ]
    if case.escalation is not None:
        lines.append(f"escalated: {case.escalation.reason}")
    return lines


def conflict_of(case: Case, department: str | None) -> Conflict:
    assert case.classification is not None
    return Conflict(
        case_id=case.case_id,
        subject=case.subject,
        task_type=case.task_type,
        positions=case.positions,
        detection=case.detection,
        classification=case.classification,
        department=department,
    )


def context_for(tier: TierTwo, choice: StrategyChoice, case: Case) -> StrategyContext:
    settings = dict(choice.settings)
    settings.setdefault("analysis", analysis_of(case))
    return StrategyContext(
        org=tier.org,
        model=tier.model,
        settings=settings,
        decision_port=tier.decision_port,
        approvals=tier.approvals,
    )


def fold_outcome(
    case: Case,
    outcome: StrategyOutcome,
    drafts: tuple[DissentDraft, ...],
    *,
    department: str | None,
    now: datetime,
) -> Case:
    """The case after a strategy's outcome (pure)."""
    attempt = RungAttempt(
        tier=Tier.HUMAN_APPEAL if outcome.strategy == "human" else Tier.CONTEXTUAL_ARBITRATION,
        rung=outcome.strategy,
        decided=outcome.status == "decided",
        group=outcome.group,
        confidence=outcome.confidence,
        detail=outcome.reasoning or (outcome.escalation_reason or ""),
    )
    tally: dict[str, Any] = {
        "attempts": (*case.attempts, attempt),
        "strategy": outcome.strategy,
        "tokens_in": case.tokens_in + outcome.tokens_in,
        "tokens_out": case.tokens_out + outcome.tokens_out,
        "model_calls": case.model_calls + outcome.model_calls,
    }
    if outcome.status == "decided":
        assert outcome.group is not None
        group = case.detection.groups[outcome.group]
        return settle_on_winner(
            case,
            winners=group.agents,
            answer=group.answer,
            lead=outcome.winner,
            rung=outcome.strategy,
            tier=Tier.CONTEXTUAL_ARBITRATION,
            confidence=outcome.confidence,
            decided_by=outcome.decided_by or outcome.strategy,
            reasoning=outcome.judge_reasoning or outcome.reasoning,
            dissenters=[Dissenter(d.position, d.strategy) for d in drafts],
            arguments=outcome.arguments,
            decided_at=now,
            department=department,
            escalation=None,
            **tally,
        ).case
    previous = case.escalation
    assert previous is not None
    if outcome.status == "queued":
        payload = revised(
            previous,
            reason=f"{previous.reason}; awaiting a human decision ({outcome.strategy}"
            + (f": {outcome.escalation_reason}" if outcome.escalation_reason else "")
            + ")",
            next_step="human",
            target_tier=Tier.HUMAN_APPEAL,
        )
        return transition(
            case,
            Outcome.QUEUED,
            **tally,
            department=department,
            decided_at=now,
            tier=Tier.HUMAN_APPEAL,
            escalation=payload,
            approval_item_id=outcome.approval_item_id,
        )
    payload = revised(
        previous,
        reason=f"{previous.reason}; then {outcome.strategy}: {outcome.escalation_reason}",
        next_step="human",
        target_tier=Tier.HUMAN_APPEAL,
        strategies_tried=(*previous.strategies_tried, attempt),
    )
    return transition(
        case,
        Outcome.ESCALATED,
        **tally,
        department=department,
        decided_at=now,
        tier=Tier.HUMAN_APPEAL,
        escalation=payload,
    )


def _critical_rule(case: Case, choice: StrategyChoice) -> tuple[Case, StrategyChoice]:
    """A critical case goes to people unless its conflict type opted in
    (:func:`accord.ladder.after_tier_one`); the case records why: an opt-in as a
    ``policy`` attempt naming the key, people in the escalation reason."""
    assert case.classification is not None
    if case.classification.severity is not Severity.CRITICAL:
        return case, choice
    if choice.critical_opt_in is not None:
        note = RungAttempt(
            tier=Tier.CONTEXTUAL_ARBITRATION,
            rung="policy",
            decided=False,
            detail=f"{choice.critical_opt_in}: strategy — the policy lets {choice.strategy} "
            "settle this critical conflict without source verification",
        )
        return revised(case, attempts=(*case.attempts, note)), choice
    escalation = case.escalation
    if escalation is not None:
        escalation = revised(escalation, reason=f"{escalation.reason}; {CRITICAL_TO_PEOPLE}")
    return revised(case, escalation=escalation), after_tier_one(
        choice, case.classification.severity
    )


async def run_tier_two(tier: TierTwo, case: Case, choice: StrategyChoice, *, clock: Clock) -> Case:
    """Run the strategy of the policy's ``choice`` for this case (made once, by
    :func:`accord.cases.triage.decide`); if it cannot settle and people are reachable,
    queue the case.

    A critical case goes straight to people (the human strategy) unless the policy opted in
    for its conflict type (:data:`accord.ladder.policy.CRITICAL_KEY`)."""
    if case.status is not SettleStatus.ESCALATED or case.classification is None:
        return case
    department = choice.department
    case, choice = _critical_rule(case, choice)
    dispute = conflict_of(case, department)
    resolver = tier.resolver_for(choice.strategy)
    outcome = await tier.run(resolver, dispute, context_for(tier, choice, case))  # type: ignore[misc]
    assert isinstance(outcome, StrategyOutcome)
    drafts = resolver.log_dissent(dispute, outcome)
    folded = fold_outcome(case, outcome, drafts, department=department, now=clock.now())
    if outcome.status == "escalated" and tier.approvals is not None and choice.strategy != "human":
        human = tier.resolver_for("human")
        ctx = context_for(tier, revised(choice, settings={}), folded)
        queued = await tier.run(human, dispute, ctx)  # type: ignore[misc]
        assert isinstance(queued, StrategyOutcome)
        folded = fold_outcome(folded, queued, (), department=department, now=clock.now())
    return folded


__all__ = ["TierTwo", "fold_outcome", "run_tier_two"]
