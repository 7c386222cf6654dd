"""The labelled corpus and the evaluation over it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from accord.conflicts import DetectionSettings, evaluate_prose, read_corpus
from accord.errors import ValidationError

CORPUS = Path(__file__).with_name("prose_corpus.jsonl")


def cases() -> list[dict[str, object]]:
    return [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]


def test_the_corpus_has_300_cases_half_paraphrases_half_conflicts_in_three_domains() -> None:
    found = cases()
    assert len(found) >= 300
    expected = Counter(str(case["expected"]) for case in found)
    assert 0.45 <= expected["agree"] / len(found) <= 0.55
    assert {case["domain"] for case in found} == {"business", "operations", "engineering"}
    for kind in {str(case["kind"]) for case in found}:
        labels = {case["expected"] for case in found if case["kind"] == kind}
        assert labels == {"agree", "conflict"}, kind


def test_the_corpus_holds_the_hard_cases() -> None:
    tags = Counter(tag for case in cases() for tag in case["tags"])  # type: ignore[attr-defined]
    for hard in ("same_sentence_change", "opposite_polarity", "irrelevant_sentence",
                 "locale_format", "triple", "held_out"):
        assert tags[hard] >= 4, hard


def test_facts_beat_the_string_comparison_on_the_shipped_corpus() -> None:
    corpus = read_corpus(CORPUS.read_text(encoding="utf-8").splitlines(), source=str(CORPUS))
    facts = evaluate_prose(corpus).total
    strings = evaluate_prose(corpus, base=DetectionSettings(text_mode="normalized")).total
    assert strings.false_conflict_rate > 0.9  # nearly every paraphrase, as the issue found
    assert facts.false_conflict_rate <= 0.05
    assert facts.missed_conflict_rate <= 0.05
    assert facts.accuracy > strings.accuracy


def test_rates_count_false_missed_and_not_comparable_apart() -> None:
    lines = [
        json.dumps({"id": "1", "kind": "amount", "expected": "agree",
                    "answers": ["Total 1,200 EUR.", "1200 euros."]}),
        json.dumps({"id": "2", "kind": "amount", "expected": "agree",
                    "answers": ["Total 1,200 EUR.", "Total 1,300 EUR."]}),
        json.dumps({"id": "3", "kind": "amount", "expected": "conflict",
                    "answers": ["Total 1,200 EUR.", "1200 euros."]}),
        json.dumps({"id": "4", "kind": "free", "expected": "conflict",
                    "answers": ["A cold cache.", "A lock held by the export job."]}),
    ]
    result = evaluate_prose(read_corpus(lines, source="mem"))
    amount = result.by_kind[0]
    assert (amount.name, amount.correct, amount.false_conflicts, amount.missed_conflicts) == (
        "amount", 1, 1, 1
    )
    assert (amount.false_conflict_rate, amount.missed_conflict_rate) == (0.5, 1.0)
    assert result.by_kind[1].not_comparable == 1
    assert result.total.accuracy == 0.25
    assert [j["id"] for j in result.summary()["misjudged"]] == ["2", "3", "4"]


@pytest.mark.parametrize(
    ("line", "field", "rule"),
    [
        ("not json", "line", "not JSON"),
        ('{"id": "x", "kind": "k", "expected": "maybe", "answers": ["a", "b"]}', "expected", ""),
        ('{"id": "x", "kind": "k", "expected": "agree", "answers": ["a"]}', "answers", ""),
        ('{"id": "x", "kind": "k", "expected": "agree", "answers": ["a", "b"], "x": 1}', "x", ""),
    ],
)
def test_a_bad_corpus_line_is_refused_naming_the_line_the_field_and_the_rule(
    line: str, field: str, rule: str
) -> None:
    with pytest.raises(ValidationError) as info:
        read_corpus(["", line], source="bad.jsonl")
    assert info.value.code == "prose.invalid_corpus"
    assert info.value.context["line"] == 2
    assert info.value.context["field"] == field
    assert str(info.value).startswith("[prose.invalid_corpus] bad.jsonl:2: ")
    assert rule in str(info.value)
