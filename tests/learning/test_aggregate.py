from __future__ import annotations

import math

import pytest

from accord.errors import ValidationError
from accord.learning import LabelMatrix, majority_vote, reliability_weights, weighted_vote


def test_majority_vote_picks_the_most_frequent_label() -> None:
    data = LabelMatrix.from_triples(
        [("q1", "a", "x"), ("q1", "b", "y"), ("q1", "c", "y"), ("q2", "a", "x")]
    )
    assert majority_vote(data) == {"q1": "y", "q2": "x"}


def test_majority_ties_go_to_the_lower_class_code_whatever_the_answer_order() -> None:
    forward = [("q", "a", "yes"), ("q", "b", "no")]
    backward = list(reversed(forward))
    assert majority_vote(LabelMatrix.from_triples(forward)) == {"q": "no"}
    assert majority_vote(LabelMatrix.from_triples(backward)) == {"q": "no"}


def test_weighted_vote_sums_the_weights_of_each_labels_voters() -> None:
    outcome = weighted_vote(
        {"billing": "1200", "audit": "1450", "finance": "1450"},
        {"billing": 3.0, "audit": 1.0, "finance": 0.5},
    )
    assert outcome.winner == "1200"
    assert outcome.scores == {"1200": 3.0, "1450": 1.5}
    assert outcome.margin == pytest.approx(1.5)


def test_weighted_vote_gives_unknown_agents_the_default_weight() -> None:
    outcome = weighted_vote({"a": "x", "b": "y", "c": "y"}, {"a": 1.5}, default_weight=0.5)
    assert outcome.winner == "x"
    assert outcome.margin == pytest.approx(0.5)


def test_an_exact_tie_has_no_winner() -> None:
    outcome = weighted_vote({"a": "x", "b": "y"}, {"a": 2.0, "b": 2.0})
    assert outcome.winner is None
    assert outcome.margin == 0.0


def test_a_single_label_wins_by_its_whole_score() -> None:
    outcome = weighted_vote({"a": "x", "b": "x"}, {})
    assert (outcome.winner, outcome.margin) == ("x", 2.0)


def test_a_single_voter_of_zero_weight_still_wins_alone() -> None:
    assert weighted_vote({"a": "x"}, {"a": 0.0}).winner == "x"


def test_no_votes_have_no_winner() -> None:
    outcome = weighted_vote({}, {})
    assert (outcome.winner, outcome.scores, outcome.margin) == (None, {}, 0.0)


@pytest.mark.parametrize("weight", [-1.0, math.inf, math.nan])
def test_negative_or_non_finite_weights_are_rejected(weight: float) -> None:
    with pytest.raises(ValidationError, match="finite and non-negative"):
        weighted_vote({"a": "x"}, {"a": weight})


def test_reliability_weights_are_clipped_log_odds() -> None:
    weights = reliability_weights(
        {"sure": 0.9, "coin": 0.5, "bad": 0.2, "perfect": 1.0, "nil": 0.0}
    )
    assert weights["sure"] == pytest.approx(math.log(9))
    assert weights["coin"] == 0.0
    assert weights["bad"] == 0.0
    assert weights["perfect"] == 10.0
    assert weights["nil"] == 0.0


def test_reliability_weights_credit_chance_level_with_more_classes() -> None:
    weights = reliability_weights({"third": 1 / 3, "half": 0.5, "huge": 1 - 1e-9}, n_classes=3)
    assert weights["third"] == pytest.approx(0.0, abs=1e-12)
    assert weights["half"] == pytest.approx(math.log(2))
    assert weights["huge"] == 10.0


def test_reliability_weights_let_a_reliable_minority_outvote_a_careless_majority() -> None:
    weights = reliability_weights({"expert": 0.95, "n1": 0.6, "n2": 0.6})
    outcome = weighted_vote({"expert": "x", "n1": "y", "n2": "y"}, weights)
    assert outcome.winner == "x"


@pytest.mark.parametrize("p", [-0.1, 1.1, math.nan])
def test_reliability_outside_the_unit_interval_is_rejected(p: float) -> None:
    with pytest.raises(ValidationError, match=r"\[0, 1\]"):
        reliability_weights({"a": p})


def test_reliability_weights_need_two_classes() -> None:
    with pytest.raises(ValidationError, match="two classes"):
        reliability_weights({"a": 0.9}, n_classes=1)
