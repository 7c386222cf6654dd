"""`accord eval prose FILE`: the rates by kind, as a table or JSON; bad corpora exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import REPO_ROOT

from .conftest import Run

CORPUS = REPO_ROOT / "tests" / "conflicts" / "prose" / "prose_corpus.jsonl"
CASE = {"id": "c1", "kind": "amount", "expected": "agree",
        "answers": ["The total is 1,200 EUR.", "1200 euros in total."]}


def test_the_shipped_corpus_prints_every_rate_by_kind(run: Run) -> None:
    result = run("eval", "prose", str(CORPUS))
    assert result.exit_code == 0, result.output
    for heading in ("accuracy", "false conflict", "missed conflict", "not comparable"):
        assert heading in result.output
    for kind in ("amount", "date", "verdict", "all"):
        assert f"│ {kind} " in result.output


def test_json_gives_the_counts_and_rates_overall_and_by_kind(run: Run) -> None:
    result = run("eval", "prose", str(CORPUS), "--json")
    data = json.loads(result.stdout)
    total = data["total"]
    assert total["cases"] == sum(kind["cases"] for kind in data["by_kind"])
    assert total["false_conflict_rate"] == round(total["false_conflicts"] / total["paraphrases"], 4)
    assert data["mode"] == "facts"


def test_the_string_comparison_it_replaces_can_be_measured_in_the_same_way(run: Run) -> None:
    facts = json.loads(run("eval", "prose", str(CORPUS), "--json").stdout)["total"]
    strings = json.loads(
        run("eval", "prose", str(CORPUS), "--json", "--mode", "normalized").stdout
    )["total"]
    assert strings["false_conflict_rate"] > facts["false_conflict_rate"]


def test_misjudged_cases_are_listed_on_request(run: Run, tmp_path: Path) -> None:
    wrong = {**CASE, "expected": "conflict"}
    Path("corpus.jsonl").write_text(json.dumps(wrong) + "\n", encoding="utf-8")
    result = run("eval", "prose", "corpus.jsonl", "--misjudged")
    assert "c1: expected conflict, got agree" in result.output


def test_a_bad_corpus_exits_2_naming_the_line_and_the_field(run: Run) -> None:
    Path("corpus.jsonl").write_text(
        json.dumps(CASE) + "\n" + json.dumps({**CASE, "id": "c2", "answers": ["one"]}) + "\n",
        encoding="utf-8",
    )
    result = run("eval", "prose", "corpus.jsonl")
    assert result.exit_code == 2
    assert "corpus.jsonl:2: answers" in result.output


def test_a_missing_corpus_says_where_the_shipped_one_lives(run: Run) -> None:
    result = run("eval", "prose", "nowhere.jsonl")
    assert result.exit_code == 2
    assert "tests/conflicts/prose/prose_corpus.jsonl" in result.output
