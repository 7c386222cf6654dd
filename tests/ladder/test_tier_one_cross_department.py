"""Settle cases at tier 1 in the playbook's order (source > confidence > authority > vote,
seeds 000 and 002): a cross-department conflict goes to the lowest common manager when tier 1
can ask it, and on to the vote when it cannot; the attempts say which rung decided and why
the earlier ones could not."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from accord.ladder import run_tier_one
from accord.ladder.rung_context import RungContext
from accord.org import OrgChart

from ..org._builders import chart, member
from ._builders import context, pos, registry

MANAGER = "agent:coo"
ONE = "agent:auditor"
FOUR = ("agent:backend-1", "agent:backend-2", "agent:frontend", "agent:billing")


def _org(manager_kind: str = "agent") -> OrgChart:
    return chart(
        [
            member(MANAGER, department="executive", seniority="lead", kind=manager_kind),
            member(FOUR[0], manager=MANAGER, department="backend", seniority="junior"),
            member(FOUR[1], manager=MANAGER, department="backend", seniority="junior"),
            member(FOUR[2], manager=MANAGER, department="frontend", seniority="junior"),
            member(FOUR[3], manager=MANAGER, department="billing", seniority="junior"),
            member(ONE, manager=MANAGER, department="audit", seniority="senior"),
        ]
    )


def _four_against_one(manager_kind: str = "agent") -> RungContext:
    """Four agents in three departments (backend, frontend, billing) answer 1200; one agent in
    audit answers 1450, all equally confident: neither source nor confidence decides."""
    positions = [pos(agent, 1200, 0.7) for agent in FOUR] + [pos(ONE, 1450, 0.7)]
    return context(positions, org=_org(manager_kind))


class _Manager:
    def __init__(self, pick: int | None) -> None:
        self.pick = pick
        self.asked: list[tuple[str, str, tuple[str, ...]]] = []

    def __call__(self, manager: str, subject: str, options: Sequence[str]) -> str | None:
        self.asked.append((manager, subject, tuple(options)))
        return None if self.pick is None else options[self.pick]


def test_four_agents_in_three_departments_against_one_are_decided_by_the_vote_at_tier_one() -> None:
    ctx = _four_against_one()

    outcome = run_tier_one(ctx, registry())

    assert outcome.decided
    assert outcome.rung == "vote"
    assert outcome.escalation_reason is None
    assert set(ctx.detection.groups[outcome.group or 0].agents) == set(FOUR)
    assert outcome.confidence == 0.8
    assert [(a.rung, a.decided) for a in outcome.attempts] == [
        ("source_verification", False),
        ("confidence", False),
        ("authority", False),
        ("vote", True),
    ]
    authority = outcome.attempts[2]
    assert "cross-department conflict (audit, backend, billing, frontend)" in authority.detail
    assert f"the lowest common manager {MANAGER} cannot be asked at tier 1" in authority.detail
    assert authority.detail.endswith("so the vote runs next")
    vote = outcome.attempts[3]
    assert vote.detail.startswith("unweighted majority with 80% of the weight")
    assert "authority could not decide" in vote.detail
    assert f"{MANAGER} cannot be asked at tier 1" in vote.detail


def test_when_tier_one_can_ask_the_lowest_common_manager_the_manager_decides() -> None:
    manager = _Manager(pick=1)  # the manager backs the single auditor
    ctx = _four_against_one()
    ctx = replace(ctx, ask_manager=manager)

    outcome = run_tier_one(ctx, registry())

    assert manager.asked == [(MANAGER, ctx.subject, ("1200", "1450"))]
    assert outcome.decided
    assert outcome.rung == "authority"
    assert ctx.detection.groups[outcome.group or 0].agents == (ONE,)
    assert [(a.rung, a.decided) for a in outcome.attempts][-1] == ("authority", True)
    assert f"{MANAGER} was asked at tier 1 and decided" in outcome.attempts[-1].detail


def test_a_manager_who_answers_no_option_leaves_the_decision_to_the_vote() -> None:
    ctx = _four_against_one()
    ctx = replace(ctx, ask_manager=_Manager(None))

    outcome = run_tier_one(ctx, registry())

    assert outcome.rung == "vote"
    assert f"the lowest common manager {MANAGER} did not answer" in outcome.attempts[2].detail


def test_a_human_manager_is_not_asked_at_tier_one_and_the_vote_runs() -> None:
    manager = _Manager(pick=1)
    ctx = _four_against_one(manager_kind="human")
    ctx = replace(ctx, ask_manager=manager)

    outcome = run_tier_one(ctx, registry())

    assert manager.asked == []
    assert outcome.rung == "vote"
    assert "is a person, not asked at tier 1" in outcome.attempts[2].detail


def test_one_against_one_across_departments_still_escalates_when_the_vote_ties() -> None:
    ctx = context([pos(FOUR[0], 1200, 0.7), pos(ONE, 1450, 0.7)], org=_org())

    outcome = run_tier_one(ctx, registry())

    assert not outcome.decided
    assert outcome.escalation_reason == "no tier-1 rung could decide"
    assert [(a.rung, a.decided) for a in outcome.attempts][-2:] == [
        ("authority", False),
        ("vote", False),
    ]


def test_when_only_the_services_decision_port_can_ask_the_manager_the_ladder_stops_for_it() -> None:
    ctx = replace(_four_against_one(), manager_port=True)

    outcome = run_tier_one(ctx, registry())

    assert not outcome.decided
    assert [(a.rung, a.decided) for a in outcome.attempts][-1] == ("authority", False)
    assert outcome.escalation_reason is not None
    assert f"{MANAGER} is asked through the decision port after tier 1" in (
        outcome.escalation_reason
    )


def test_a_person_as_manager_is_not_waited_for_even_with_a_decision_port() -> None:
    ctx = replace(_four_against_one(manager_kind="human"), manager_port=True)

    outcome = run_tier_one(ctx, registry())

    assert outcome.rung == "vote"
