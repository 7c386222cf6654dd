"""Accord's aggregates on synthetic crowds with known truth, read from CSV as ``accord eval`` does.

The published figures on the real crowds (product, duck) are the crowd benchmark's job
(``benchmarks/crowd_bench.py`` reads ``../shared/data/crowd``); these tests need no shared data.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from accord.learning import CrowdEvaluation, evaluate_crowd

from ._builders import experts_and_spammers, symmetric_confusion, synthetic_crowd, write_crowd


@pytest.fixture(scope="module")
def crowd(crowd_dir: Path) -> Path:
    return experts_and_spammers(crowd_dir / "experts")


@pytest.fixture(scope="module")
def evaluation(crowd: Path) -> CrowdEvaluation:
    return evaluate_crowd(crowd)


def _majority_accuracy_by_hand(folder: Path) -> float:
    votes: dict[str, Counter[str]] = {}
    with (folder / "answers.csv").open(encoding="utf-8") as answers:
        for row in csv.DictReader(answers):
            votes.setdefault(row["question"], Counter())[row["answer"]] += 1
    with (folder / "truth.csv").open(encoding="utf-8") as truths:
        truth = {row["question"]: row["truth"] for row in csv.DictReader(truths)}
    right = sum(votes[item].most_common(1)[0][0] == label for item, label in truth.items())
    return right / len(truth)


def test_the_crowd_has_the_shape_it_was_built_with(evaluation: CrowdEvaluation) -> None:
    assert (evaluation.answers, evaluation.items, evaluation.workers) == (3_000, 600, 7)
    assert evaluation.truth_items == 600
    assert not evaluation.numeric


def test_majority_vote_matches_a_count_by_hand(crowd: Path, evaluation: CrowdEvaluation) -> None:
    assert evaluation.majority_accuracy == pytest.approx(_majority_accuracy_by_hand(crowd))


def test_dawid_skene_finds_the_experts_and_beats_majority_vote(
    evaluation: CrowdEvaluation,
) -> None:
    assert evaluation.weighted_accuracy is not None
    assert evaluation.majority_accuracy is not None
    assert evaluation.weighted_accuracy >= 0.9
    assert evaluation.weighted_accuracy > evaluation.majority_accuracy + 0.05


def test_a_fit_the_size_of_the_product_crowd_converges_within_a_hundred_iterations(
    crowd_dir: Path,
) -> None:
    # The product crowd's shape: 8,315 items, 3 answers each, 176 workers.
    confusions = [symmetric_confusion(0.9 if w % 3 else 0.6, 2) for w in range(176)]
    triples, truth = synthetic_crowd(confusions, n_items=8_315, per_item=3, seed=11)
    result = evaluate_crowd(write_crowd(crowd_dir / "product-sized", triples, truth))
    assert result.answers == 24_945
    # its time is a benchmark (`make bench BENCH_ARGS="--only crowd"`), never a timed test
    assert result.iterations <= 100
