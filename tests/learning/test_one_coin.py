"""One-coin reliability: one accuracy per agent, for cases whose answers differ per case."""

from __future__ import annotations

import numpy as np
import pytest

from accord.errors import ValidationError
from accord.learning import estimate_case_reliability, fit_one_coin


def synthetic_votes(seed: int = 3) -> list[tuple[str, str, str]]:
    """200 cases, each with its own answer space; agent 'good' is right 95 %, 'bad' 30 %."""
    rng = np.random.default_rng(seed)
    accuracy = {"good": 0.95, "ok-1": 0.75, "ok-2": 0.75, "bad": 0.30}
    votes = []
    for case in range(200):
        truth = f"case{case}-true"
        for agent, p in accuracy.items():
            wrong = f"case{case}-wrong{rng.integers(0, 2)}"
            votes.append((f"case{case}", agent, truth if rng.random() < p else wrong))
    return votes


def test_accuracies_are_recovered_from_history_without_ground_truth() -> None:
    result = fit_one_coin(synthetic_votes())
    reliability = result.reliability()
    assert result.converged
    assert reliability["good"] > reliability["ok-1"] > reliability["bad"]
    assert reliability["good"] == pytest.approx(0.95, abs=0.05)
    assert reliability["bad"] == pytest.approx(0.30, abs=0.1)


def test_agents_with_little_history_get_the_neutral_value() -> None:
    votes = [*synthetic_votes(), ("lone-case", "newcomer", "x")]
    reliability = estimate_case_reliability(votes, min_answers=3)
    assert reliability["newcomer"] == 0.5
    assert reliability["good"] > 0.8


def test_the_last_vote_of_an_agent_on_a_case_counts() -> None:
    votes = [("c", "a", "x"), ("c", "a", "y"), ("c", "b", "y")]
    result = fit_one_coin(votes)
    assert result.reliability()["a"] == pytest.approx(result.reliability()["b"])


def test_no_votes_give_no_agents() -> None:
    result = fit_one_coin([])
    assert result.agents == ()
    assert estimate_case_reliability([]) == {}


def test_a_bad_prior_is_refused() -> None:
    with pytest.raises(ValidationError):
        fit_one_coin([("c", "a", "x")], prior_accuracy=1.0)


def test_unanimous_single_answer_cases_raise_everyones_accuracy() -> None:
    votes = [(f"c{i}", agent, "same") for i in range(20) for agent in ("a", "b")]
    reliability = fit_one_coin(votes).reliability()
    assert reliability["a"] > 0.9
    assert reliability["b"] > 0.9
