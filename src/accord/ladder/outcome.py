"""What the tier-1 ladder did: each rung it tried, and whether one of them decided."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from accord.conflicts import Tier


class RungAttempt(BaseModel):
    """One rung's (or strategy's) verdict: decided for a group of agents, or why it could not.

    ``tier`` is where it ran: tier-1 rungs at ``direct_negotiation``; a strategy after tier 1
    at ``contextual_arbitration`` (``human_appeal`` for the human queue)."""

    model_config = ConfigDict(frozen=True)

    rung: str
    decided: bool
    group: int | None = None
    confidence: float = 0.0
    detail: str = ""
    tier: Tier = Tier.DIRECT_NEGOTIATION


class TierOneOutcome(BaseModel):
    """The ladder's result; ``escalation_reason`` is set exactly when nothing decided."""

    model_config = ConfigDict(frozen=True)

    decided: bool
    rung: str | None
    group: int | None
    confidence: float
    attempts: tuple[RungAttempt, ...]
    escalation_reason: str | None
    next_step: str | None
