"""Accord's aggregates on real crowds with ground truth (skips where the data is absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from accord.learning import CrowdEvaluation, evaluate_crowd

# Published figures, given to three decimals (see shared/data/crowd/README.md).
PUBLISHED_MV = {"product": 0.897, "duck": 0.759}
PUBLISHED_DS = {"product": 0.940, "duck": 0.889}


@pytest.fixture(scope="module")
def product(crowd_dir: Path) -> CrowdEvaluation:
    return evaluate_crowd(crowd_dir / "product")


@pytest.fixture(scope="module")
def duck(crowd_dir: Path) -> CrowdEvaluation:
    return evaluate_crowd(crowd_dir / "duck")


def test_product_has_the_documented_shape(product: CrowdEvaluation) -> None:
    assert (product.answers, product.items, product.workers) == (24_945, 8_315, 176)
    assert product.truth_items == 8_315


def test_duck_has_the_documented_shape(duck: CrowdEvaluation) -> None:
    assert (duck.answers, duck.items, duck.workers) == (4_212, 108, 39)
    assert duck.truth_items == 108


@pytest.mark.parametrize("name", ["product", "duck"])
def test_majority_vote_matches_the_published_figure(
    name: str, request: pytest.FixtureRequest
) -> None:
    evaluation: CrowdEvaluation = request.getfixturevalue(name)
    assert evaluation.majority_accuracy is not None
    assert round(evaluation.majority_accuracy, 3) == PUBLISHED_MV[name]


@pytest.mark.parametrize("name", ["product", "duck"])
def test_dawid_skene_reaches_the_published_figure_and_beats_majority_vote(
    name: str, request: pytest.FixtureRequest
) -> None:
    evaluation: CrowdEvaluation = request.getfixturevalue(name)
    assert evaluation.weighted_accuracy is not None
    assert evaluation.majority_accuracy is not None
    assert round(evaluation.weighted_accuracy, 3) >= PUBLISHED_DS[name]
    assert evaluation.weighted_accuracy > evaluation.majority_accuracy


def test_the_product_fit_takes_well_under_a_second(product: CrowdEvaluation) -> None:
    assert product.fit_seconds < 1.0
    assert product.iterations <= 100
