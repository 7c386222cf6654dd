"""Rung 3: authority — the side with the most senior agent in the org chart wins."""

from __future__ import annotations

from accord.resolution.outcome import RungAttempt
from accord.resolution.rung_context import RungContext


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
