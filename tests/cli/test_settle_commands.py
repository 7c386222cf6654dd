"""`accord settle | cases | case | report | eval crowd` from a user's shell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.learning._builders import experts_and_spammers

from .conftest import Run

DB = "sqlite:///settle.db"
INVOICE = {
    "subject": "Total of invoice 4411",
    "task_type": "invoicing",
    "positions": [
        {"agent": "agent:billing", "output": 1200.5, "confidence": 0.9},
        {"agent": "agent:audit", "output": 1450, "confidence": 0.7},
    ],
}
SANCTIONS = {
    "subject": "Is the vendor sanctioned?",
    "positions": [
        {"agent": "agent:risk", "output": True, "confidence": 0.9},
        {"agent": "agent:sales", "output": False, "confidence": 0.6},
    ],
}


def settle(run: Run, payload: object, name: str = "case.json") -> tuple[int, object, str]:
    Path(name).write_text(json.dumps(payload))
    result = run("settle", name, "--db", DB, "--keys", "keys")
    parsed = json.loads(result.stdout) if result.exit_code == 0 else None
    return result.exit_code, parsed, result.output


def test_settle_prints_the_decision_as_json(run: Run) -> None:
    code, decision, _ = settle(run, INVOICE)
    assert code == 0
    assert isinstance(decision, dict)
    assert decision["status"] == "settled"
    assert decision["winner"] == "agent:billing"
    assert decision["rung"] == "confidence"
    assert decision["kind"] == "numerical_inconsistency"
    assert decision["severity"] == "medium"
    assert decision["case_id"].startswith("disp:")
    assert len(decision["dissent_ids"]) == 1
    assert decision["ledger_seqs"] == [1, 2]


def test_a_list_of_cases_is_settled_in_one_go(run: Run) -> None:
    code, decisions, _ = settle(run, [INVOICE, SANCTIONS])
    assert code == 0
    assert isinstance(decisions, list)
    assert [d["status"] for d in decisions] == ["settled", "escalated"]
    assert decisions[1]["severity"] == "critical"
    assert "source verification" in decisions[1]["escalation_reason"]


def test_escalated_cases_are_listed_and_shown(run: Run) -> None:
    settle(run, [INVOICE, SANCTIONS])
    listed = run("cases", "--status", "escalated", "--db", DB, "--keys", "keys", "--json")
    rows = json.loads(listed.stdout)
    assert [r["status"] for r in rows] == ["escalated"]
    shown = run("case", rows[0]["case_id"], "--db", DB, "--keys", "keys")
    case = json.loads(shown.stdout)
    assert case["escalation"]["target_tier"] == "human_appeal"  # tier 2 (authority) had no org
    assert set(case["escalation"]["outputs"]) == {"agent:risk", "agent:sales"}
    assert "escalated" in run("cases", "--db", DB, "--keys", "keys").output
    assert run("case", "disp:nope", "--db", DB, "--keys", "keys").exit_code == 1
    assert run("cases", "--status", "bogus", "--db", DB, "--keys", "keys").exit_code == 2


@pytest.mark.parametrize(
    ("payload", "needle"),
    [
        ({"subject": "x"}, "positions"),
        ({"subject": "x", "positions": [], "extra": 1}, "extra"),
        ({"subject": "", "positions": [{"agent": "a", "output": 1}]}, "subject"),
        (
            {"subject": "x", "positions": [{"agent": "a", "output": 1, "confidence": 2}]},
            "confidence",
        ),
        (
            {
                "subject": "x",
                "positions": [{"agent": "a", "output": 1}, {"agent": "a", "output": 2}],
            },
            "appears at positions",
        ),
        (
            {
                "subject": "x",
                "positions": [{"agent": "a", "output": 1}, {"agent": "b", "output": "1"}],
            },
            "but position 0",
        ),
        (["not an object"], "JSON object"),
    ],
)
def test_invalid_input_exits_2_naming_the_problem_and_writes_nothing(
    run: Run, payload: object, needle: str
) -> None:
    code, _, output = settle(run, payload)
    assert code == 2
    assert needle in output
    listed = run("cases", "--db", DB, "--keys", "keys", "--json")
    if Path("settle.db").exists():
        assert json.loads(listed.stdout) == []
    else:  # refused before any database was opened: reading one does not create it either
        assert listed.exit_code == 2
        assert "[store.no_database]" in listed.output
        assert not Path("settle.db").exists()


def test_unreadable_and_malformed_files_exit_2(run: Run) -> None:
    assert run("settle", "missing.json", "--db", DB).exit_code == 2
    Path("bad.json").write_text("{not json")
    result = run("settle", "bad.json", "--db", DB)
    assert result.exit_code == 2
    assert "line 1" in result.output


def test_report_writes_plots_and_summaries(run: Run) -> None:
    settle(run, [INVOICE, SANCTIONS, INVOICE])
    result = run("report", "--out", "rep", "--format", "svg", "--db", DB, "--keys", "keys")
    assert result.exit_code == 0, result.output
    assert Path("rep/summary.json").is_file()
    assert Path("rep/win_rates.svg").read_text().lstrip().startswith("<?xml")
    summary = json.loads(Path("rep/summary.json").read_text())
    assert summary["total"] == 3
    assert summary["escalated"] == 1
    assert run("report", "--format", "gif", "--db", DB).exit_code == 2


def test_eval_crowd_reports_majority_and_weighted_accuracy(run: Run) -> None:
    experts_and_spammers(Path("crowd"))
    result = run("eval", "crowd", "crowd", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["weighted_accuracy"] >= 0.9 > data["majority_accuracy"]
    table = run("eval", "crowd", "crowd")
    assert "crowd" in table.output
    assert "Accord (weighted)" in table.output


def test_eval_crowd_of_a_missing_folder_names_the_files_and_a_crowd_that_works(run: Run) -> None:
    result = run("eval", "crowd", "../shared/data/crowd/product")
    assert result.exit_code == 2
    assert "no crowd folder at ../shared/data/crowd/product" in result.output
    assert "answers.csv" in result.output
    assert "accord eval crowd examples/crowd/experts" in result.output


def test_the_example_crowd_shipped_in_the_repository_evaluates() -> None:
    from typer.testing import CliRunner

    from accord.cli.main import app

    folder = REPO_ROOT / "examples" / "crowd" / "experts"
    result = CliRunner().invoke(app, ["eval", "crowd", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["items"], data["workers"]) == (200, 7)
    assert data["weighted_accuracy"] > data["majority_accuracy"]


def test_dissent_list_export_and_summary(run: Run) -> None:
    settle(run, [INVOICE, INVOICE])
    listed = run("dissent", "list", "--agent", "agent:audit", "--db", DB, "--keys", "keys")
    assert listed.exit_code == 0
    assert "agent:audit" in listed.output
    exported = run("dissent", "list", "--jsonl", "--db", DB, "--keys", "keys")
    assert len(exported.stdout.splitlines()) == 2
    summary = json.loads(run("dissent", "summary", "--db", DB, "--keys", "keys").stdout)
    assert summary["by_agent"] == {"agent:audit": 2}
    bad = run("dissent", "list", "--since", "yesterday", "--db", DB, "--keys", "keys")
    assert bad.exit_code == 2
    since = run("dissent", "list", "--since", "2000-01-01", "--jsonl", "--db", DB, "--keys", "keys")
    assert len(since.stdout.splitlines()) == 2


def test_an_error_shows_its_code_and_user_text_verbatim_even_with_markup_characters(
    run: Run,
) -> None:
    bad = {
        "subject": "s",
        "positions": [{"agent": "[/]", "output": 1}, {"agent": "[/]", "output": 2}],
    }
    code, _, output = settle(run, bad, name="cases[b].json")
    assert code == 2
    assert "[conflicts.duplicate_agent]" in output
    assert "'[/]'" in output
    missing = run("settle", "nofile[/].json", "--db", DB, "--keys", "keys")
    assert missing.exit_code == 2
    assert "nofile[/].json" in missing.output


def test_eval_crowd_can_be_told_that_small_integer_answers_are_numbers(run: Run) -> None:
    folder = Path("counts")
    folder.mkdir()
    rows = ["question,worker,answer"]
    truth = ["question,truth"]
    for q in range(6):
        truth.append(f"q{q},{q}")
        rows += [f"q{q},w1,{q}", f"q{q},w2,{q}", f"q{q},w3,{q + 2}"]
    (folder / "answers.csv").write_text("\n".join(rows) + "\n")
    (folder / "truth.csv").write_text("\n".join(truth) + "\n")
    guessed = json.loads(run("eval", "crowd", "counts", "--json").stdout)
    assert guessed["numeric"] is False  # few distinct integers look like labels
    told = json.loads(run("eval", "crowd", "counts", "--json", "--numeric").stdout)
    assert told["numeric"] is True
    assert told["mae_mean"] is not None
    (folder / "answers.csv").write_text("\n".join([*rows, "q0,w4,abc"]) + "\n")
    typo = run("eval", "crowd", "counts", "--numeric")
    assert typo.exit_code == 2
    assert "abc" in typo.output
