"""Strategy 1: authority + dissent log — the hierarchy decides, at zero model tokens.

Rules, in order (seed 000, strategy 1):

1. Every party must be in the org chart; otherwise the case escalates, naming the missing.
2. Parties in different branches (``org.same_branch`` false): a cross-department conflict,
   decided by the parties' lowest common manager (``cross_department: manager_decides``,
   the default) or, with ``cross_department: seniority``, by rule 3.
3. A unique highest seniority decides: that party's group wins.
4. Equal seniority: ``same_level: manager_decides`` (default) asks the lowest common manager;
   ``same_level: escalate`` escalates.

The lowest common manager is asked through ``ctx.decision_port`` to pick one of the groups'
answers. A human manager, a missing or silent port, or an answer that is not an option sends
the case to the human approval queue; so does having no common manager at all.
"""

from __future__ import annotations

from typing import Literal

from accord.ladder._strategy_support import (
    StrategySettings,
    base_analysis,
    common_manager,
    escalated,
    lead_of,
    log,
    not_in_org,
    options_of,
    parse_settings,
    queue_for_people,
)
from accord.ladder.hierarchy import spans_branches
from accord.ladder.protocol import ResolverBase
from accord.ladder.strategy_context import StrategyContext
from accord.ladder.strategy_types import Conflict, StrategyOutcome
from accord.org import OrgChart

AUTHORITY_CONFIDENCE = 0.75
"""Confidence of an authority decision: the hierarchy, not evidence, decided (as tier 1)."""


class AuthoritySettings(StrategySettings):
    """``conflict_resolution.authority`` settings."""

    same_level: Literal["manager_decides", "escalate"] = "manager_decides"
    cross_department: Literal["manager_decides", "seniority"] = "manager_decides"


class AuthorityStrategy(ResolverBase):
    """The hierarchy decides; the lowest common manager settles ties and cross-department cases."""

    name = "authority"
    settings_model = AuthoritySettings

    async def resolve(self, dispute: Conflict, ctx: StrategyContext) -> StrategyOutcome:
        settings = parse_settings(AuthoritySettings, self.name, ctx.settings)
        missing = not_in_org(dispute, ctx)
        if ctx.org is None:
            return escalated(self.name, "no org chart configured")
        if missing:
            return escalated(self.name, f"not in the org chart: {', '.join(missing)}")
        org = ctx.org
        if spans_branches(org, dispute.parties) and settings.cross_department == "manager_decides":
            return await self._manager_decides(
                dispute, ctx, org, settings, "cross-department conflict (different branches)"
            )
        ranks = {
            index: max(org.rank_of(agent) for agent in group.agents)
            for index, group in enumerate(dispute.detection.groups)
        }
        ordered = sorted(ranks.items(), key=lambda item: -item[1])
        if ordered[0][1] > ordered[1][1]:
            group = ordered[0][0]
            senior = max(
                dispute.detection.groups[group].agents, key=lambda agent: org.rank_of(agent)
            )
            level = org.seniority.levels[ordered[0][1]]
            return StrategyOutcome(
                strategy=self.name,
                status="decided",
                group=group,
                winner=lead_of(dispute, group),
                confidence=AUTHORITY_CONFIDENCE,
                reasoning=f"{senior} is the most senior party ({level})",
                decided_by=senior,
            )
        if settings.same_level == "escalate":
            return escalated(self.name, "the most senior parties are of equal seniority")
        return await self._manager_decides(dispute, ctx, org, settings, "equal seniority")

    async def _manager_decides(
        self,
        dispute: Conflict,
        ctx: StrategyContext,
        org: OrgChart,
        settings: AuthoritySettings,
        why: str,
    ) -> StrategyOutcome:
        analysis = base_analysis(dispute, settings.analysis)
        manager = common_manager(org, dispute.parties)
        if manager is None:
            return await queue_for_people(
                self.name, dispute, ctx, reason=f"{why}; no common manager", analysis=analysis
            )
        if org.agent(manager).is_human:
            return await queue_for_people(
                self.name,
                dispute,
                ctx,
                reason=f"{why}; the lowest common manager {manager} is a human",
                analysis=analysis,
            )
        if ctx.decision_port is None:
            return await queue_for_people(
                self.name,
                dispute,
                ctx,
                reason=f"{why}; no way to ask {manager} (no decision port)",
                analysis=analysis,
            )
        options = options_of(dispute)
        try:
            answer = await ctx.decision_port.ask(manager, dispute, options)
        except Exception as error:  # the port is I/O: a failure means "unreachable"
            log.warning("manager_unreachable", manager=manager, error=str(error))
            answer = None
        if answer is None or answer not in options:
            said = "did not answer" if answer is None else f"answered {answer!r}, not an option"
            return await queue_for_people(
                self.name,
                dispute,
                ctx,
                reason=f"{why}; the lowest common manager {manager} {said}",
                analysis=analysis,
            )
        group = options.index(answer)
        return StrategyOutcome(
            strategy=self.name,
            status="decided",
            group=group,
            winner=lead_of(dispute, group),
            confidence=AUTHORITY_CONFIDENCE,
            reasoning=f"{why}: the lowest common manager {manager} chose {answer!r}",
            decided_by=manager,
        )
