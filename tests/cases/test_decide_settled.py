"""``decide`` settling a conflict at tier 1: the winner, the winning side and the dissent."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.cases import CaseStatus, SettleStatus
from accord.conflicts import Tier

from ._builders import NOW, TASK, decide_case, pos


def test_a_settled_case_names_the_most_confident_member_of_the_winning_side() -> None:
    case = decide_case(
        [pos("a", 100, 0.6), pos("b", 200, 0.2), pos("c", 100, 0.95), pos("d", 100, 0.7)]
    )

    assert case.status is SettleStatus.SETTLED
    assert case.dcp_status is CaseStatus.RESOLVED
    assert case.tier is Tier.DIRECT_NEGOTIATION
    decision = case.decision
    assert decision is not None
    assert decision.winner == "c"
    assert decision.winners == ("a", "c", "d")
    assert decision.answer == 100
    assert decision.rung == "confidence"
    assert decision.confidence == 0.95
    assert decision.resolution_id is not None
    assert decision.resolution_id.startswith("res:")


def test_without_confidences_the_first_member_of_the_winning_side_leads() -> None:
    case = decide_case([pos("a", 200), pos("b", 100), pos("c", 100)])

    assert case.decision is not None
    assert case.decision.rung == "vote"
    assert case.decision.winner == "b"


def test_every_agent_outside_the_winning_side_gets_a_dissent_record_and_only_they() -> None:
    case = decide_case(
        [pos("a", 100, 0.9), pos("b", 200, 0.2), pos("c", 100, 0.3), pos("d", 5000, 0.1)]
    )

    assert [d.agent_id for d in case.dissent] == ["b", "d"]
    assert len(set(case.dissent_ids)) == 2
    for record in case.dissent:
        assert record.dissent_id.startswith("dis:")
        assert record.case_id == case.case_id
        assert record.task_type == TASK
        assert record.kind == "numerical_inconsistency"
        assert record.strategy == "confidence"
        assert record.winning_answer == 100
        assert record.reasoning == "confidence 0.90 against 0.20"
        assert record.created_at == NOW
    assert case.dissent[0].position == pos("b", 200, 0.2)


def test_a_settled_case_keeps_every_rung_attempt() -> None:
    case = decide_case([pos("a", 100, 0.9), pos("b", 200, 0.2)], truth=150)

    assert [(a.rung, a.decided) for a in case.attempts] == [
        ("source_verification", False),
        ("confidence", True),
    ]


def test_a_source_of_truth_settles_with_full_confidence() -> None:
    case = decide_case([pos("a", 100, 0.99), pos("b", 200, 0.1)], truth=200)

    assert case.decision is not None
    assert case.decision.rung == "source_verification"
    assert case.decision.winner == "b"
    assert case.decision.confidence == 1.0
    assert [d.agent_id for d in case.dissent] == ["a"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([1, 10, 100]), st.floats(0, 1, allow_nan=False)),
        min_size=2,
        max_size=6,
    )
)
def test_winners_and_dissenters_always_partition_the_agents(
    entries: list[tuple[int, float]],
) -> None:
    positions = [pos(f"a{i}", value, c) for i, (value, c) in enumerate(entries)]

    case = decide_case(positions)

    if case.status is SettleStatus.SETTLED:
        assert case.decision is not None
        winners = set(case.decision.winners)
        dissenters = {d.agent_id for d in case.dissent}
        assert winners | dissenters == {p.agent for p in positions}
        assert not winners & dissenters
        assert case.decision.winner in winners
        best = max(p.confidence or 0.0 for p in positions if p.agent in winners)
        assert next(p for p in positions if p.agent == case.decision.winner).confidence == best
    else:
        assert case.dissent == ()
