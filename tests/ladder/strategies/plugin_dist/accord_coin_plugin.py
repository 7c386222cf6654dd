"""A third-party strategy: the first answer group always wins (a rigged coin, for tests)."""

from __future__ import annotations

from accord.ladder import Conflict, ResolverBase, StrategyContext, StrategyOutcome


class CoinStrategy(ResolverBase):
    """Decides for the first answer group, at zero model tokens."""

    name = "coin"

    async def resolve(self, dispute: Conflict, ctx: StrategyContext) -> StrategyOutcome:
        first = dispute.detection.groups[0]
        return StrategyOutcome(
            strategy=self.name,
            status="decided",
            group=0,
            winner=first.agents[0],
            confidence=0.5,
            reasoning="the coin came up heads",
            decided_by="coin",
        )


class NotAStrategy:
    """Has a name but nothing else a strategy needs."""

    name = "hollow"
