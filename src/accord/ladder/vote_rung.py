"""Rung 4: vote — the majority, each agent weighted by its learned reliability."""

from __future__ import annotations

from accord.ladder.outcome import RungAttempt
from accord.ladder.rung_context import RungContext


def vote_rung(ctx: RungContext) -> RungAttempt:
    """A strict weighted majority decides; confidence is the winner's share of the weight."""
    scores: dict[int, float] = {}
    for position in ctx.positions:
        group = ctx.group_of(position.agent)
        if group is not None:
            scores[group] = scores.get(group, 0.0) + max(0.0, ctx.weights.get(position.agent, 1.0))
    total = sum(scores.values())
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    if len(ranked) < 2 or total <= 0 or ranked[0][1] - ranked[1][1] <= 1e-12:
        return RungAttempt(rung="vote", decided=False, detail="no weighted majority")
    top, weight = ranked[0]
    share = weight / total
    weighted = any(a in ctx.weights for a in (p.agent for p in ctx.positions))
    how = "reliability-weighted" if weighted else "unweighted"
    return RungAttempt(
        rung="vote",
        decided=True,
        group=top,
        confidence=share,
        detail=f"{how} majority with {share:.0%} of the weight",
    )
