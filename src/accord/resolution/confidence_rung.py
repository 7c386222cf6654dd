"""Rung 2: declared confidence — the clearly more confident side wins; a small gap is a tie."""

from __future__ import annotations

from accord.resolution.outcome import RungAttempt
from accord.resolution.rung_context import RungContext

_ROUNDING = 1e-12
"""Float noise forgiven at the tie boundary: 0.7 − 0.6 is a gap of 0.1, not a tie."""


def confidence_rung(ctx: RungContext, *, tie_gap: float) -> RungAttempt:
    """A group's confidence is its most confident member's; a gap under ``tie_gap`` ties.

    The boundary is inclusive up to float rounding noise: a gap of exactly ``tie_gap``
    (say 0.7 against 0.6) decides, as 0.8 against 0.7 does.
    """
    if any(p.confidence is None for p in ctx.positions):
        return RungAttempt(
            rung="confidence", decided=False, detail="not every position declared a confidence"
        )
    best: dict[int, float] = {}
    for position in ctx.positions:
        group = ctx.group_of(position.agent)
        if group is not None and position.confidence is not None:
            best[group] = max(best.get(group, 0.0), position.confidence)
    ranked = sorted(best.items(), key=lambda item: -item[1])
    if len(ranked) < 2:
        return RungAttempt(rung="confidence", decided=False, detail="only one side")
    (top, top_conf), (_, second_conf) = ranked[0], ranked[1]
    gap = top_conf - second_conf
    if gap < tie_gap - _ROUNDING:
        return RungAttempt(
            rung="confidence",
            decided=False,
            detail=f"tie: confidence gap {gap:.2f} is under {tie_gap:.2f}",
        )
    return RungAttempt(
        rung="confidence",
        decided=True,
        group=top,
        confidence=top_conf,
        detail=f"confidence {top_conf:.2f} against {second_conf:.2f}",
    )
