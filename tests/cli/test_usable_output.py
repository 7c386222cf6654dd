"""What a user reads from the CLI: whole ids, JSON values, boundaries they can find, and
commands that say what they did (init, session close) or where they looked (verify)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

from .conftest import Run

EXAMPLES = REPO_ROOT / "src" / "accord" / "examples"

DB = "sqlite:///usable.db"
ARGS = ("--db", DB, "--keys", "keys")
SESSION_CONFIG = """\
conflict_resolution: {strategy: human}
settle:
  task_types:
    # recorded as before prose detection, where a rewording was still a (stylistic) conflict
    shipping_note: {detection: {text_mode: normalized}}
boundary:
  probes: {erp_invoice_total: 'tests.boundary.probes:ErpInvoiceTotal'}
  tie_breakers:
    invoicing: {probe: erp_invoice_total, arguments: {invoice: '4411'}, description: ERP total}
"""
INVOICE = {
    "subject": "Total of invoice 4411",
    "task_type": "invoicing",
    "session_id": "s1",
    "positions": [
        {"agent": "agent:billing", "output": 1200, "confidence": 0.8, "reasoning": "items"},
        {"agent": "agent:audit", "output": 1450, "confidence": 0.75, "reasoning": "shipping"},
    ],
}
REFUND = {
    "subject": "Refund 18k to a flagged customer?",
    "session_id": "s1",
    "positions": [
        {"agent": "agent:support", "output": "approve", "reasoning": "loyal customer"},
        {"agent": "agent:risk", "output": "reject", "reasoning": "fraud flags"},
    ],
}
STYLE = {
    "subject": "Shipping note",
    "task_type": "shipping_note",
    "session_id": "s1",
    "positions": [
        {"agent": "agent:ops", "output": "**Ship it** to the *EU* warehouse now please."},
        {"agent": "agent:qa", "output": "ship it to the EU warehouse now please"},
    ],
}


def settle(run: Run, *cases: dict[str, object]) -> list[dict[str, object]]:
    Path("cases.json").write_text(json.dumps(list(cases)))
    result = run("settle", "cases.json", *ARGS)
    assert result.exit_code == 0, result.output
    settled: list[dict[str, object]] = json.loads(result.stdout)
    return settled


@pytest.fixture
def session(run: Run) -> list[dict[str, object]]:
    Path("accord.yaml").write_text(SESSION_CONFIG)
    settled = settle(run, INVOICE, REFUND, STYLE)
    assert [c["status"] for c in settled] == ["escalated"] * 3
    return settled


def test_the_cases_table_shows_the_subject_and_whole_case_ids(
    run: Run, session: list[dict[str, object]]
) -> None:
    table = run("cases", *ARGS).output
    assert "Total of invoice 4411" in table
    assert "Refund 18k to a flagged customer?" in table
    for case in session:
        assert str(case["case_id"]) in table
    assert "…" not in table


def test_the_approvals_table_shows_the_whole_item_id_that_decide_needs(
    run: Run, session: list[dict[str, object]]
) -> None:
    for width in ("200", "80"):  # on a narrow terminal a row prints as lines, the id whole
        table = run("approvals", "list", *ARGS, env={"COLUMNS": width}).output
        assert "…" not in table
        lines = table.splitlines()
        for case in session:
            assert any(str(case["approval_item_id"]) in line for line in lines)


def test_the_dissent_table_prints_values_as_json_not_python_reprs(run: Run) -> None:
    settle(
        run,
        {
            "subject": "Shipment record",
            "positions": [
                {"agent": "agent:a", "output": {"k": 1, "ok": True}, "confidence": 0.95},
                {"agent": "agent:b", "output": {"k": 2, "ok": True}, "confidence": 0.55},
            ],
        },
    )
    table = run("dissent", "list", *ARGS).output
    assert '{"k": 1, "ok": true}' in table
    assert "True" not in table
    assert "{'k'" not in table
    listed = json.loads(run("dissent", "list", "--json", *ARGS).stdout)
    assert [(r["agent_id"], r["winning_answer"]) for r in listed] == [
        ("agent:b", {"k": 1, "ok": True})
    ]


def test_session_close_lists_the_cases_it_skipped_and_why(
    run: Run, session: list[dict[str, object]]
) -> None:
    style_case = str(session[2]["case_id"])
    closed = run("session", "close", "s1", *ARGS)
    assert closed.exit_code == 0, closed.output
    assert "2 boundaries recorded" in closed.output
    assert "1 case(s) skipped" in closed.output
    assert style_case in closed.output
    assert "stylistic" in closed.output
    again = json.loads(run("session", "close", "s1", "--json", *ARGS).stdout)
    assert again["boundaries"] == []
    reasons = {line["case_id"]: line["reason"] for line in again["skipped"]}
    assert reasons[style_case].startswith("stylistic")
    assert reasons[str(session[0]["case_id"])].startswith("already recorded as bnd:")


def test_a_boundary_handed_to_people_is_found_with_boundaries_list(
    run: Run, session: list[dict[str, object]]
) -> None:
    run("session", "close", "s1", *ARGS)
    human = json.loads(run("boundaries", "list", "--status", "human", "--json", *ARGS).stdout)
    assert [b["case_id"] for b in human] == [session[1]["case_id"]]
    everything = json.loads(run("boundaries", "list", "--json", *ARGS).stdout)
    assert sorted(b["status"] for b in everything) == ["human", "pending"]
    table = run("boundaries", "list", "--session", "s1", *ARGS).output
    for boundary in everything:
        assert boundary["boundary_id"] in table
    assert run("boundaries", "pending", *ARGS).output.count("bnd:") == 1
    bad = run("boundaries", "list", "--status", "open", *ARGS)
    assert bad.exit_code == 2
    assert "boundary.bad_status" in bad.output


def test_init_says_which_files_it_wrote_and_which_it_kept(run: Run) -> None:
    mine = "# my company\n" + (EXAMPLES / "org.yaml").read_text(encoding="utf-8")
    Path("org.yaml").write_text(mine)
    first = run("init").output
    assert "kept     org.yaml" in first
    assert "wrote    accord.yaml" in first
    assert "wrote    org.yaml" not in first
    assert "created  database" in first
    assert "created  service key service" in first
    second = run("init").output
    assert "kept     accord.yaml" in second
    assert "kept     database" in second
    assert "kept     service key service" in second
    assert "wrote" not in second
    assert Path("org.yaml").read_text() == mine


def test_verify_without_the_key_folder_names_the_folder_it_searched(
    run: Run, tmp_path: Path
) -> None:
    settle(run, INVOICE)
    result = run("verify", "--db", DB)
    assert result.exit_code == 2
    assert f"no key named 'service' in the key folder {tmp_path / 'accord-keys'}" in result.output
    assert "--keys" in result.output


def test_the_ledger_tail_shows_whole_signer_kids_and_entry_hashes(run: Run) -> None:
    settle(run, INVOICE)
    entries = json.loads(run("ledger", "tail", "--json", *ARGS).stdout)
    table = run("ledger", "tail", *ARGS, env={"COLUMNS": "250"}).output
    for entry in entries:
        assert entry["signer_kid"] in table
    assert "…" not in table
