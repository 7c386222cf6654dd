"""Rung 3: authority — within one branch, the side with the most senior agent wins.

Seniority decides only between parties of one branch of the org chart (seed 000, strategy 1):
a cross-department conflict goes to the parties' lowest common manager, which tier 1 cannot
ask, so :func:`cross_department` stops the ladder and names that manager.
"""

from __future__ import annotations

from accord.ladder.hierarchy import common_manager, spans_branches
from accord.ladder.outcome import RungAttempt
from accord.ladder.rung_context import RungContext


def cross_department(ctx: RungContext) -> str | None:
    """Why seniority may not decide this case (parties in different branches), naming who
    decides instead; None when the parties share a branch or the chart cannot say."""
    org = ctx.org
    parties = [p.agent for p in ctx.positions]
    if org is None or any(agent not in org for agent in parties) or len(parties) < 2:
        return None
    if not spans_branches(org, parties):
        return None
    departments = ", ".join(sorted({org.agent(a).department for a in parties}))
    manager = common_manager(org, parties)
    who = (
        f"their lowest common manager {manager} decides"
        if manager is not None
        else "they have no common manager, so people decide"
    )
    return f"cross-department conflict ({departments}): seniority does not apply; {who}"


def authority_rung(ctx: RungContext) -> RungAttempt:
    """Unique highest seniority decides; equal seniority or unknown agents do not."""
    org = ctx.org
    if org is None:
        return RungAttempt(rung="authority", decided=False, detail="no org chart configured")
    unknown = [p.agent for p in ctx.positions if p.agent not in org]
    if unknown:
        return RungAttempt(
            rung="authority", decided=False, detail=f"not in the org chart: {', '.join(unknown)}"
        )
    rank: dict[int, int] = {}
    for position in ctx.positions:
        group = ctx.group_of(position.agent)
        if group is not None:
            rank[group] = max(rank.get(group, -1), org.rank_of(position.agent))
    ranked = sorted(rank.items(), key=lambda item: -item[1])
    if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
        return RungAttempt(rung="authority", decided=False, detail="equal seniority")
    top = ranked[0][0]
    level = org.seniority.levels[ranked[0][1]]
    return RungAttempt(
        rung="authority",
        decided=True,
        group=top,
        confidence=0.75,
        detail=f"most senior party is {level}",
    )
