"""The tier-1 ladder: run the case's tier-1 rungs in chain order until one decides.

Escalation rules (playbook §7): free-text answers that could not be compared (no fact both
state, nothing to tell them apart: tier 1 would only pick a side blindly), a conflict whose
dispute type starts above tier 1 (R2),
a critical conflict that source verification did not settle, a decision under the minimum
confidence, or a chain whose tier-1 rungs all failed — each escalates with the reason.

A cross-department conflict reaching the authority rung goes to the parties' lowest common
manager (seed 000): when tier 1 can ask it (``RungContext.ask_manager``, an AI manager) the
manager decides; when only the service's decision port can (``manager_port``) the ladder stops
and the case escalates to be asked there; when it cannot be asked at all, the authority rung
records why and the vote runs next, in the
playbook's order (source > confidence > authority > vote, seed 002), its detail naming why
authority could not decide. Each attempt keeps its rung's reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from accord.conflicts import Severity, Tier
from accord.ladder.authority_rung import (
    ASKED_AFTER_TIER_ONE,
    authority_rung,
    cross_department,
    manager_rung,
)
from accord.ladder.confidence_rung import confidence_rung
from accord.ladder.outcome import RungAttempt, TierOneOutcome
from accord.ladder.rung_context import RungContext
from accord.ladder.source_verification import VerifierRegistry, source_verification
from accord.ladder.vote_rung import vote_rung
from accord.values import revised

TIER_ONE_RUNGS = ("source_verification", "confidence", "authority", "vote")


@dataclass(frozen=True, slots=True)
class LadderSettings:
    """Thresholds of the tier-1 rungs."""

    confidence_tie_gap: float = 0.1
    min_confidence: float = 0.5
    source_tolerance: float = 0.10


def _escalate(attempts: list[RungAttempt], reason: str, next_step: str | None) -> TierOneOutcome:
    return TierOneOutcome(
        decided=False,
        rung=None,
        group=None,
        confidence=0.0,
        attempts=tuple(attempts),
        escalation_reason=reason,
        next_step=next_step,
    )


def _after_earlier(attempt: RungAttempt, earlier: list[RungAttempt]) -> RungAttempt:
    """``attempt``, when it decides after an authority rung that could not (a cross-department
    case whose manager tier 1 cannot ask), saying so: the record names the rung that decided
    and why the one before it could not."""
    authority = next((a for a in earlier if a.rung == "authority" and not a.decided), None)
    if not attempt.decided or authority is None or "cross-department" not in authority.detail:
        return attempt
    return revised(
        attempt, detail=f"{attempt.detail}; authority could not decide: {authority.detail}"
    )


def run_tier_one(
    ctx: RungContext, verifiers: VerifierRegistry, settings: LadderSettings = LadderSettings()
) -> TierOneOutcome:
    """Decide at tier 1 when that is honest; otherwise say why and what comes next."""
    chain = ctx.classification.strategy_chain
    beyond = next((step for step in chain if step not in TIER_ONE_RUNGS), None)
    prose = ctx.detection.prose
    if prose is not None and not prose.comparable:
        return _escalate([], f"the answers could not be compared ({prose.reason})", beyond)
    critical = ctx.classification.severity is Severity.CRITICAL
    if ctx.classification.starting_tier is not Tier.DIRECT_NEGOTIATION:
        tier = ctx.classification.starting_tier
        if critical and tier is Tier.HUMAN_APPEAL:
            reason = f"critical {ctx.classification.dispute_type} disputes start at {tier} (R18)"
        else:
            reason = f"{ctx.classification.dispute_type} disputes start at {tier} (R2)"
        return _escalate([], reason, beyond)
    attempts: list[RungAttempt] = []
    for step in chain:
        if step not in TIER_ONE_RUNGS:
            break
        if critical and step != "source_verification":
            continue  # critical conflicts never settle at tier 1 without a source
        if step == "source_verification":
            attempt = source_verification(ctx, verifiers, tolerance=settings.source_tolerance)
        elif step == "confidence":
            attempt = confidence_rung(ctx, tie_gap=settings.confidence_tie_gap)
        elif step == "authority":
            deferred = cross_department(ctx)
            attempt = authority_rung(ctx) if deferred is None else manager_rung(ctx, deferred)
            if not attempt.decided and attempt.detail.endswith(ASKED_AFTER_TIER_ONE):
                attempts.append(attempt)
                return _escalate(attempts, attempt.detail, beyond)
        else:
            attempt = _after_earlier(vote_rung(ctx), attempts)
        attempts.append(attempt)
        if not attempt.decided:
            continue
        if attempt.confidence < settings.min_confidence:
            return _escalate(
                attempts,
                f"{step} decided with confidence "
                f"{attempt.confidence:.2f}, under {settings.min_confidence:.2f}",
                beyond,
            )
        return TierOneOutcome(
            decided=True,
            rung=step,
            group=attempt.group,
            confidence=attempt.confidence,
            attempts=tuple(attempts),
            escalation_reason=None,
            next_step=None,
        )
    if critical:
        return _escalate(
            attempts,
            "critical conflicts without source verification never settle at tier 1",
            beyond,
        )
    return _escalate(attempts, "no tier-1 rung could decide", beyond)
