from __future__ import annotations

import numpy as np

from accord.learning import estimate_reliability

from ._builders import symmetric_confusion, synthetic_crowd


def test_reliable_agents_score_higher_than_careless_ones_without_ground_truth() -> None:
    confusions = [symmetric_confusion(a, 2) for a in (0.95, 0.9, 0.85, 0.6, 0.55)]
    votes, _ = synthetic_crowd(confusions, n_items=400, per_item=4, seed=21)
    reliability = estimate_reliability(votes)
    assert reliability["w00"] > 0.88
    assert reliability["w04"] < 0.65
    assert reliability["w00"] > reliability["w03"] > 0.5


def test_agents_with_too_few_votes_fall_back_to_an_even_reliability() -> None:
    votes, _ = synthetic_crowd([symmetric_confusion(0.9, 2)] * 3, n_items=50, per_item=3, seed=22)
    votes += [("i00000", "newcomer", "c0"), ("i00001", "newcomer", "c1")]
    reliability = estimate_reliability(votes)
    assert reliability["newcomer"] == 0.5
    assert estimate_reliability(votes, min_answers=2)["newcomer"] != 0.5


def test_agents_who_always_agree_are_fully_reliable() -> None:
    votes = [(f"case-{i}", agent, "approve") for i in range(5) for agent in ("a", "b")]
    reliability = estimate_reliability(votes)
    assert set(reliability) == {"a", "b"}
    assert all(np.isclose(value, 1.0) for value in reliability.values())


def test_no_votes_give_no_reliabilities() -> None:
    assert estimate_reliability([]) == {}
