from __future__ import annotations

import pytest
from pydantic import ValidationError as PydanticValidationError

from accord.errors import ValidationError
from accord.learning import WinRateTracker

from ._builders import outcome


def test_an_agent_without_history_has_an_even_win_rate() -> None:
    tracker = WinRateTracker()
    assert tracker.win_rate("agent:new") == 0.5
    assert tracker.cases("agent:new") == 0
    assert tracker.agents() == []


def test_recording_returns_a_new_tracker_and_leaves_the_old_one_alone() -> None:
    empty = WinRateTracker()
    one = empty.record("agent:a", ["agent:b", "agent:c"], "invoicing")
    assert empty.cases("agent:a") == 0
    assert one.win_rate("agent:a") == 1.0
    assert one.win_rate("agent:b") == 0.0
    assert one.agents() == ["agent:a", "agent:b", "agent:c"]


def test_win_rates_are_kept_per_task_type_and_overall() -> None:
    tracker = (
        WinRateTracker()
        .record("agent:a", ["agent:b"], "invoicing")
        .record("agent:a", ["agent:b"], "invoicing")
        .record("agent:b", ["agent:a"], "search")
    )
    assert tracker.win_rate("agent:a", "invoicing") == 1.0
    assert tracker.win_rate("agent:a", "search") == 0.0
    assert tracker.win_rate("agent:a") == pytest.approx(2 / 3)
    assert tracker.cases("agent:a") == 3
    assert tracker.wins("agent:b") == 1
    assert tracker.win_rate("agent:a", "translation") == 0.5
    assert tracker.pairs() == [
        ("agent:a", "invoicing"),
        ("agent:a", "search"),
        ("agent:b", "invoicing"),
        ("agent:b", "search"),
    ]


def test_building_from_outcomes_skips_cases_nobody_won() -> None:
    tracker = WinRateTracker.from_outcomes(
        [
            outcome("c1", winner="agent:a", losers=("agent:b",)),
            outcome("c2", winner=None, losers=(), escalated=True),
            outcome("c3", winner="agent:b", losers=("agent:a", "agent:c")),
        ]
    )
    assert tracker.cases("agent:a") == 2
    assert tracker.win_rate("agent:c") == 0.0
    assert tracker.win_rate("agent:b") == 0.5


def test_routing_advice_flags_agents_below_the_threshold_on_a_task_type() -> None:
    tracker = WinRateTracker()
    for _ in range(4):
        tracker = tracker.record("agent:a", ["agent:b"], "invoicing")
    tracker = tracker.record("agent:b", ["agent:a"], "invoicing")
    for _ in range(3):
        tracker = tracker.record("agent:a", ["agent:c"], "search")
    flags = tracker.routing_advice()
    assert [(f.agent, f.task_type, f.cases) for f in flags] == [("agent:b", "invoicing", 5)]
    flag = flags[0]
    assert flag.win_rate == pytest.approx(0.2)
    assert "agent:b" in flag.advice
    assert "invoicing" in flag.advice
    assert "dispatch priority" in flag.advice


def test_routing_advice_waits_for_enough_cases_and_lists_the_worst_first() -> None:
    tracker = WinRateTracker()
    for _ in range(3):
        tracker = tracker.record("agent:a", ["agent:b", "agent:c"], "search")
    tracker = tracker.record("agent:c", ["agent:a"], "search")
    assert tracker.routing_advice() == []
    flags = tracker.routing_advice(min_cases=3)
    assert [(f.agent, round(f.win_rate, 2)) for f in flags] == [("agent:b", 0.0), ("agent:c", 0.25)]
    assert tracker.routing_advice(threshold=0.2, min_cases=3)[0].agent == "agent:b"


def test_a_rate_exactly_at_the_threshold_is_not_flagged() -> None:
    tracker = WinRateTracker()
    for winner, loser in [("a", "b")] * 3 + [("b", "a")] * 2:
        tracker = tracker.record(winner, [loser], "t")
    assert tracker.win_rate("b", "t") == 0.4
    assert tracker.routing_advice() == []


@pytest.mark.parametrize(
    ("winner", "losers", "task_type"),
    [("a", ["a"], "t"), ("a", ["b", "b"], "t"), ("", ["b"], "t"), ("a", [""], "t"), ("a", [], "")],
)
def test_a_malformed_contest_is_rejected(winner: str, losers: list[str], task_type: str) -> None:
    with pytest.raises(ValidationError):
        WinRateTracker().record(winner, losers, task_type)


def test_every_winner_of_a_winning_group_counts_in_a_three_against_two_vote() -> None:
    vote = outcome(
        "c1",
        winner="agent:a",
        winners=("agent:a", "agent:b", "agent:c"),
        losers=("agent:d", "agent:e"),
    )

    tracker = WinRateTracker.from_outcomes([vote])

    assert [tracker.wins(agent) for agent in ("agent:a", "agent:b", "agent:c")] == [1, 1, 1]
    assert tracker.win_rate("agent:d") == 0.0
    assert tracker.agents() == ["agent:a", "agent:b", "agent:c", "agent:d", "agent:e"]


def test_an_outcome_whose_winners_omit_the_winner_is_refused() -> None:
    with pytest.raises(PydanticValidationError):
        outcome("c1", winner="agent:a", winners=("agent:b",), losers=("agent:c",))
