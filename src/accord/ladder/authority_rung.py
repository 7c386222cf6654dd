"""Rung 3: authority — within one branch, the side with the most senior agent wins.

Seniority decides only between parties of one branch of the org chart (seed 000, strategy 1):
a cross-department conflict goes to the parties' lowest common manager. When tier 1 can ask
that manager (an AI member, and the context's ``ask_manager``), the manager decides
(:func:`manager_rung`); when only the service's decision port can ask it, the ladder stops and
the case goes on to be asked there (``manager_port``); when it cannot be asked at all (no
common manager, a person, no port, or no option answered) the rung does not decide, says why,
and the ladder goes on to the vote — the playbook's order, source > confidence > authority >
vote (seed 002).
"""

from __future__ import annotations

from accord.ladder._strategy_support import group_option_texts
from accord.ladder.hierarchy import common_manager, spans_branches
from accord.ladder.option_labels import labelled
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


ASKED_AFTER_TIER_ONE = "is asked through the decision port after tier 1"
"""How an authority attempt ends when the ladder stops for a manager the service asks later."""

MANAGER_CONFIDENCE = 0.75
"""Confidence of a manager's tier-1 decision: the hierarchy decided (as the authority rung)."""


def manager_rung(ctx: RungContext, deferred: str) -> RungAttempt:
    """The authority rung of a cross-department case (``deferred`` is
    :func:`cross_department`'s reason): the lowest common manager decides when tier 1 can ask
    it; when only the service's decision port can ask it (after tier 1) the attempt is
    undecided and says so (:func:`~accord.ladder.tier_one.run_tier_one` then stops the ladder
    for that manager); otherwise the attempt is undecided and its detail says why the vote
    runs next."""
    org = ctx.org
    assert org is not None
    parties = [p.agent for p in ctx.positions]
    manager = common_manager(org, parties)
    if manager is None:
        why = "there is no common manager to ask"
    elif org.agent(manager).is_human:
        why = f"the lowest common manager {manager} is a person, not asked at tier 1"
    elif ctx.ask_manager is None and ctx.manager_port:
        return RungAttempt(
            rung="authority",
            decided=False,
            detail=f"{deferred}; {manager} {ASKED_AFTER_TIER_ONE}",
        )
    elif ctx.ask_manager is None:
        why = f"the lowest common manager {manager} cannot be asked at tier 1"
    else:
        options = labelled(group_option_texts(ctx.detection))
        try:
            answer = ctx.ask_manager(manager, ctx.subject, options)
        except Exception as error:  # the port is I/O: a failure means "not reachable"
            answer = None
            why = f"asking the lowest common manager {manager} failed ({type(error).__name__})"
        else:
            why = (
                f"the lowest common manager {manager} did not answer"
                if answer is None
                else f"the lowest common manager {manager} answered {answer!r}, not an option"
            )
        if answer is not None and answer in options:
            return RungAttempt(
                rung="authority",
                decided=True,
                group=options.index(answer),
                confidence=MANAGER_CONFIDENCE,
                detail=f"{deferred}; {manager} was asked at tier 1 and decided",
            )
    return RungAttempt(
        rung="authority", decided=False, detail=f"{deferred}; {why}, so the vote runs next"
    )


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
