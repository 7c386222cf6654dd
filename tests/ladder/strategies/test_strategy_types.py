"""The dispute, outcome and dissent models keep their invariants; shared helpers behave."""

from __future__ import annotations

import pydantic
import pytest

from accord.conflicts import AnswerGroup
from accord.errors import ValidationError
from accord.ladder import (
    Conflict,
    DissentDraft,
    ResolverBase,
    StrategyContext,
    StrategyOutcome,
    draft_dissent,
)
from accord.ladder._strategy_support import options_of, render_answer

from ._builders import dispute, pos, two_sides


def test_a_dispute_is_built_from_positions_that_conflict() -> None:
    case = two_sides()

    assert case.parties == ("agent:dev-1", "agent:dev-2")
    assert case.group_of("agent:dev-2") == 1
    assert case.group_of("agent:nobody") is None
    assert case.classification.kind == case.detection.kind


def test_positions_that_agree_are_not_a_dispute() -> None:
    with pytest.raises(ValidationError) as raised:
        dispute(pos("agent:a", 1200), pos("agent:b", 1200))

    assert raised.value.code == "strategies.no_conflict"


def test_a_dispute_whose_groups_do_not_hold_its_parties_is_refused() -> None:
    case = two_sides()
    stranger = case.detection.model_copy(
        update={"groups": (AnswerGroup(answer=1, agents=("agent:x",)), *case.detection.groups[1:])}
    )

    with pytest.raises(pydantic.ValidationError, match="exactly one answer group"):
        Conflict(**{**case.__dict__, "detection": stranger})


def test_a_dispute_needs_two_answer_groups() -> None:
    case = two_sides()
    single = case.detection.model_copy(update={"groups": case.detection.groups[:1]})

    with pytest.raises(pydantic.ValidationError, match="at least two answer groups"):
        Conflict(**{**case.__dict__, "detection": single})


def test_the_position_of_a_non_party_is_an_error() -> None:
    with pytest.raises(ValidationError) as raised:
        two_sides().position_of("agent:nobody")

    assert raised.value.code == "strategies.unknown_party"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"status": "decided"}, "group and winner are set exactly when"),
        ({"status": "escalated", "group": 0, "winner": "a"}, "group and winner are set exactly"),
        ({"status": "escalated"}, "needs an escalation_reason"),
        ({"status": "queued"}, "approval_item_id is set exactly when"),
        (
            {"status": "escalated", "escalation_reason": "x", "approval_item_id": "i"},
            "approval_item_id is set exactly when",
        ),
    ],
)
def test_an_outcome_keeps_its_status_fields_consistent(
    fields: dict[str, object], message: str
) -> None:
    with pytest.raises(pydantic.ValidationError, match=message):
        StrategyOutcome(strategy="x", **fields)  # type: ignore[arg-type]


def test_a_dissent_draft_holds_the_dissenters_own_position() -> None:
    with pytest.raises(pydantic.ValidationError, match="dissenting agent's own"):
        DissentDraft(
            agent_id="agent:dev-2",
            position=pos("agent:dev-1", 1),
            reasoning="r",
            resolution_reasoning="r",
            strategy="x",
        )


def test_a_dissenter_who_did_not_argue_dissents_with_its_groups_argument_or_says_none() -> None:
    case = dispute(
        pos("agent:dev-1", 1200, 0.9),
        pos("agent:dev-2", 1450, 0.8),
        pos("agent:dev-senior", 1450, 0.5),
        pos("agent:lab", 999, 0.5),
    )
    outcome = StrategyOutcome(
        strategy="debate",
        status="decided",
        group=case.group_of("agent:dev-1"),
        winner="agent:dev-1",
        reasoning="decided",
        arguments={"agent:dev-1": "a", "agent:dev-2": "shipping", "agent:lab": ""},
    )

    drafts = {d.agent_id: d.reasoning for d in draft_dissent(case, outcome)}

    assert drafts == {
        "agent:dev-2": "shipping",
        "agent:dev-senior": "(argued by agent:dev-2) shipping",
        "agent:lab": "(no reasoning given)",
    }


def test_the_default_detection_groups_positions_like_the_conflicts_room() -> None:
    found = ResolverBase().detect_conflict([pos("a:x", True), pos("a:y", False)])

    assert found.has_conflict
    assert len(found.groups) == 2


def test_options_render_answers_and_are_numbered_when_renderings_collide() -> None:
    case = two_sides()
    same = case.detection.model_copy(
        update={
            "groups": tuple(
                AnswerGroup(answer="same", agents=group.agents) for group in case.detection.groups
            )
        }
    )
    twins = Conflict(**{**case.__dict__, "detection": same})

    assert options_of(case) == ("1200", "1450")
    assert options_of(twins) == ("option 1: same", "option 2: same")
    assert render_answer({"b": 1, "a": [True]}) == '{"a": [true], "b": 1}'


def test_a_context_defaults_to_nothing_configured() -> None:
    ctx = StrategyContext()

    assert (ctx.org, ctx.model, ctx.decision_port, ctx.approvals) == (None, None, None, None)
    assert dict(ctx.settings) == {}
