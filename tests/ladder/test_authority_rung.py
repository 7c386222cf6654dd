"""Rung 3: the side with the single most senior agent in the org chart wins."""

from __future__ import annotations

from accord.ladder.authority_rung import authority_rung, cross_department
from accord.org import SeniorityScale

from ..org._builders import chart, member
from ._builders import context, pos

ORG = chart(
    [
        member("agent:junior", seniority="junior"),
        member("agent:mid", seniority="mid"),
        member("agent:mid-2", seniority="mid"),
        member("agent:senior", seniority="senior"),
        member("agent:lead", seniority="lead"),
    ]
)


def test_without_an_org_chart_the_rung_declines() -> None:
    attempt = authority_rung(context([pos("agent:lead", 1), pos("agent:mid", 2)]))

    assert not attempt.decided
    assert attempt.rung == "authority"
    assert attempt.detail == "no org chart configured"


def test_agents_missing_from_the_org_chart_make_the_rung_decline_and_are_named() -> None:
    ctx = context([pos("agent:ghost", 1), pos("agent:lead", 2), pos("agent:stranger", 1)], org=ORG)

    attempt = authority_rung(ctx)

    assert not attempt.decided
    assert attempt.detail == "not in the org chart: agent:ghost, agent:stranger"


def test_equal_seniority_on_both_sides_declines() -> None:
    attempt = authority_rung(context([pos("agent:mid", 1), pos("agent:mid-2", 2)], org=ORG))

    assert not attempt.decided
    assert attempt.detail == "equal seniority"


def test_the_side_with_the_unique_most_senior_agent_wins() -> None:
    ctx = context([pos("agent:mid", 1), pos("agent:senior", 2)], org=ORG)

    attempt = authority_rung(ctx)

    assert attempt.decided
    assert ctx.detection.groups[attempt.group or 0].agents == ("agent:senior",)
    assert attempt.confidence == 0.75
    assert attempt.detail == "most senior party is senior"


def test_a_sides_seniority_is_that_of_its_most_senior_member() -> None:
    ctx = context(
        [pos("agent:junior", 1), pos("agent:lead", 1), pos("agent:senior", 2), pos("agent:mid", 2)],
        org=ORG,
    )

    attempt = authority_rung(ctx)

    assert attempt.decided
    assert set(ctx.detection.groups[attempt.group or 0].agents) == {"agent:junior", "agent:lead"}
    assert attempt.detail == "most senior party is lead"


def test_equal_top_seniority_ties_even_when_a_third_side_ranks_lower() -> None:
    ctx = context([pos("agent:mid", 1), pos("agent:mid-2", 2), pos("agent:junior", 4)], org=ORG)

    assert not authority_rung(ctx).decided


def test_the_org_charts_own_seniority_scale_is_used() -> None:
    scale = SeniorityScale(levels=("apprentice", "master"))
    org = chart(
        [member("agent:old", seniority="master"), member("agent:new", seniority="apprentice")],
        seniority=scale,
    )
    ctx = context([pos("agent:new", 1), pos("agent:old", 2)], org=org)

    attempt = authority_rung(ctx)

    assert attempt.decided
    assert attempt.detail == "most senior party is master"


def test_across_branches_seniority_does_not_apply_and_the_common_manager_is_named() -> None:
    org = chart(
        [
            member("agent:boss", department="executive", seniority="lead"),
            member("agent:eng", manager="agent:boss", department="backend", seniority="senior"),
            member("agent:fin", manager="agent:boss", department="billing", seniority="junior"),
        ]
    )

    reason = cross_department(context([pos("agent:eng", 1), pos("agent:fin", 2)], org=org))

    assert reason == (
        "cross-department conflict (backend, billing): seniority does not apply; "
        "their lowest common manager agent:boss decides"
    )


def test_across_separate_hierarchies_people_decide() -> None:
    org = chart(
        [
            member("agent:eng", department="backend", seniority="senior"),
            member("agent:lab", department="labs", seniority="junior"),
        ]
    )

    reason = cross_department(context([pos("agent:eng", 1), pos("agent:lab", 2)], org=org))

    assert reason is not None
    assert reason.endswith("they have no common manager, so people decide")


def test_within_one_branch_or_without_a_chart_there_is_no_cross_department_reason() -> None:
    same = context([pos("agent:mid", 1), pos("agent:senior", 2)], org=ORG)
    unknown = context([pos("agent:ghost", 1), pos("agent:senior", 2)], org=ORG)

    assert cross_department(same) is None
    assert cross_department(unknown) is None
    assert cross_department(context([pos("agent:a", 1), pos("agent:b", 2)])) is None
