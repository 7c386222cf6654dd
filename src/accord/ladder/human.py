"""Strategy 3: human escalation — every genuine conflict goes to the human approval queue.

The item carries every position summarized, the analysis (detection, classification and what
earlier tiers tried, from ``settings['analysis']``) and the groups' answers as options; the
outcome is ``queued`` with the item's id, and the parties park the task (§12.4) until people
decide. With no approval queue configured the case escalates — it is never reported as
queued when nothing was queued.
"""

from __future__ import annotations

from accord.ladder._strategy_support import (
    StrategySettings,
    base_analysis,
    parse_settings,
    queue_for_people,
)
from accord.ladder.protocol import ResolverBase
from accord.ladder.strategy_context import StrategyContext
from accord.ladder.strategy_types import Conflict, StrategyOutcome


class HumanSettings(StrategySettings):
    """``conflict_resolution.human`` settings: only ``analysis``."""


class HumanStrategy(ResolverBase):
    """People decide, always."""

    name = "human"
    settings_model = HumanSettings

    async def resolve(self, dispute: Conflict, ctx: StrategyContext) -> StrategyOutcome:
        settings = parse_settings(HumanSettings, self.name, ctx.settings)
        return await queue_for_people(
            self.name,
            dispute,
            ctx,
            reason="the human strategy sends every genuine conflict to people",
            analysis=base_analysis(dispute, settings.analysis),
        )
