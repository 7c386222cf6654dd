"""The rung context: answer groups by agent, and rungs that only count grouped agents."""

from __future__ import annotations

from dataclasses import replace

import pytest

from accord.ladder import RungContext
from accord.ladder.authority_rung import authority_rung
from accord.ladder.confidence_rung import confidence_rung
from accord.ladder.vote_rung import vote_rung

from ..org._builders import chart, member
from ._builders import context, pos

ORG = chart([member("a"), member("b", seniority="senior"), member("stranger", seniority="vp")])


def with_stranger(ctx: RungContext) -> RungContext:
    """``ctx`` plus a position whose agent belongs to no answer group."""
    return replace(ctx, positions=(*ctx.positions, pos("stranger", 100, 1.0)))


def one_sided(ctx: RungContext) -> RungContext:
    """``ctx`` as if detection had found only its first answer group."""
    detection = ctx.detection.model_copy(update={"groups": ctx.detection.groups[:1]})
    return replace(ctx, detection=detection)


def test_group_of_names_an_agents_answer_group_or_none() -> None:
    ctx = context([pos("a", 100), pos("b", 200), pos("c", 100)])

    assert [ctx.group_of(agent) for agent in ("a", "b", "c", "zed")] == [0, 1, 0, None]


def test_a_context_defaults_to_no_org_and_no_weights() -> None:
    ctx = context([pos("a", 100), pos("b", 200)])
    bare = RungContext(
        subject=ctx.subject,
        task_type=ctx.task_type,
        positions=ctx.positions,
        detection=ctx.detection,
        classification=ctx.classification,
    )

    assert bare.org is None
    assert dict(bare.weights) == {}


def test_confidence_ignores_a_position_outside_every_answer_group() -> None:
    ctx = with_stranger(context([pos("a", 100, 0.9), pos("b", 200, 0.2)]))

    attempt = confidence_rung(ctx, tie_gap=0.1)

    assert attempt.decided
    assert attempt.confidence == 0.9


def test_vote_ignores_a_position_outside_every_answer_group() -> None:
    ctx = with_stranger(context([pos("a", 100), pos("b", 200)], weights={"stranger": 9.0}))

    assert not vote_rung(ctx).decided


def test_authority_ignores_a_position_outside_every_answer_group() -> None:
    ctx = with_stranger(context([pos("a", 100), pos("b", 200)], org=ORG))

    attempt = authority_rung(ctx)

    assert attempt.decided
    assert attempt.detail == "most senior party is senior"


@pytest.mark.parametrize(
    ("rung", "detail"),
    [
        (lambda ctx: confidence_rung(ctx, tie_gap=0.1), "only one side"),
        (authority_rung, "equal seniority"),
        (vote_rung, "no weighted majority"),
    ],
)
def test_with_a_single_answer_group_no_rung_decides(rung: object, detail: str) -> None:
    ctx = one_sided(context([pos("a", 100, 0.9), pos("b", 200, 0.1)], org=ORG))

    attempt = rung(ctx)  # type: ignore[operator]

    assert not attempt.decided
    assert attempt.detail == detail
