"""Rung 2: declared confidence — the clearly more confident side wins; a small gap is a tie."""

from __future__ import annotations

from accord.conflicts import Position, declared_confidence
from accord.ladder.outcome import RungAttempt
from accord.ladder.rung_context import RungContext

_ROUNDING = 1e-12
"""Float noise forgiven at the tie boundary: 0.7 − 0.6 is a gap of 0.1, not a tie."""


def _confidence(position: Position, disputed: tuple[str, ...]) -> float | None:
    """Overall confidence; for structured outputs, the lowest stated on a disputed field (a
    side is only as sure as its least sure contested field)."""
    if not disputed:
        return position.confidence
    stated = [declared_confidence(position, path) for path in disputed]
    if any(value is None for value in stated):
        return None
    return min(value for value in stated if value is not None)


def confidence_rung(ctx: RungContext, *, tie_gap: float) -> RungAttempt:
    """A group's confidence is its most confident member's; a gap under ``tie_gap`` ties.

    For structured outputs each member counts with its confidence on the disputed fields
    (``field_confidence``, else overall). The boundary is inclusive up to float rounding
    noise: a gap of exactly ``tie_gap`` (say 0.7 against 0.6) decides, as 0.8 against 0.7.
    """
    disputed = tuple(f.path for f in ctx.detection.field_conflicts)
    stated = {p.agent: _confidence(p, disputed) for p in ctx.positions}
    if any(value is None for value in stated.values()):
        return RungAttempt(
            rung="confidence", decided=False, detail="not every position declared a confidence"
        )
    best: dict[int, float] = {}
    for position in ctx.positions:
        group = ctx.group_of(position.agent)
        value = stated[position.agent]
        if group is not None and value is not None:
            best[group] = max(best.get(group, 0.0), value)
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
