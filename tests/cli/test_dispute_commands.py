"""``accord disputes open | show | list | evidence | escalate | withdraw | export | import``,
and ``accord sweep`` escalating a dispute at its deadline, from a user's shell."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import update

from accord.app import Accord
from accord.clock import FrozenClock
from accord.store.tables import dcp_disputes
from tests.disputes.conftest import evidence, filing_data

from .conftest import Run

DB = "sqlite:///disputes.db"
OPTS = ("--db", DB, "--keys", "keys")


def _open(run: Run, *filings: dict[str, Any], name: str = "filing.json") -> list[dict[str, Any]]:
    Path(name).write_text(json.dumps(list(filings)), encoding="utf-8")
    result = run("disputes", "open", name, *OPTS, "--json")
    assert result.exit_code == 0, result.output
    opened: list[dict[str, Any]] = json.loads(result.stdout)
    return opened


def test_r17_open_show_evidence_and_escalate_to_human_appeal_round_trip(run: Run) -> None:
    (opened,) = _open(run, filing_data())
    dispute_id = opened["dispute_id"]
    assert (opened["status"], opened["current_escalation_level"]) == (
        "open",
        "direct_negotiation",
    )
    Path("more.yaml").write_text(
        "evidence_type: log\nreference: log:2\ndescription: the other booking\n"
        "content: {booked: 2}\n",
        encoding="utf-8",
    )
    added = run("disputes", "evidence", dispute_id, "more.yaml", "--by", "agent-b", *OPTS)
    assert added.exit_code == 0, added.output
    appealed = run(
        "disputes", "escalate", dispute_id, "--by", "agent-b", "--to", "human_appeal", *OPTS,
        "--json",
    )  # fmt: skip
    assert appealed.exit_code == 0, appealed.output
    assert json.loads(appealed.stdout)[0]["status"] == "appealing"
    shown = json.loads(run("disputes", "show", dispute_id, *OPTS).stdout)
    assert [t["event"] for t in shown["timeline"]] == [
        "dispute_opened",
        "dispute_evidence_submitted",
        "dispute_escalated",
    ]
    assert len(shown["evidence"]) == 2
    assert shown["party_escalated"] is True
    assert run("disputes", "show", "disp:nope", *OPTS).exit_code == 1


def test_list_prints_whole_ids_filters_and_pages(run: Run) -> None:
    opened = _open(run, filing_data(), filing_data(complainant="agent-c"), filing_data())
    table = run("disputes", "list", *OPTS)
    assert table.exit_code == 0, table.output
    assert "…" not in table.output
    for d in opened:
        assert d["dispute_id"] in table.output
    page = json.loads(run("disputes", "list", "--limit", "2", *OPTS, "--json").stdout)
    assert len(page["items"]) == 2
    assert page["next_after"] == opened[1]["dispute_id"]
    rest = json.loads(
        run("disputes", "list", "--after", page["next_after"], *OPTS, "--json").stdout
    )
    assert [s["dispute_id"] for s in rest["items"]] == [opened[2]["dispute_id"]]
    mine = json.loads(run("disputes", "list", "--party", "agent-c", *OPTS, "--json").stdout)
    assert [s["dispute_id"] for s in mine["items"]] == [opened[1]["dispute_id"]]
    bad = run("disputes", "list", "--status", "pending", *OPTS)
    assert bad.exit_code == 2
    assert "status" in bad.output


def test_a_refused_filing_file_writes_nothing_and_names_the_rule(run: Run) -> None:
    Path("bad.json").write_text(
        json.dumps([filing_data(), filing_data(severity="critical", evidence=[])]),
        encoding="utf-8",
    )
    refused = run("disputes", "open", "bad.json", *OPTS)
    assert refused.exit_code == 2
    assert "R34" in refused.output
    listed = run("disputes", "list", *OPTS, "--json")
    assert json.loads(listed.stdout)["items"] == []


def test_withdraw_then_export_and_import_the_sdk_record(run: Run) -> None:
    (first, second) = _open(run, filing_data(), filing_data())
    withdrawn = run("disputes", "withdraw", first["dispute_id"], "--by", "agent-a", *OPTS)
    assert withdrawn.exit_code == 0, withdrawn.output
    assert "withdrawn" in withdrawn.output
    refused = run("disputes", "export", first["dispute_id"], *OPTS)
    assert refused.exit_code == 2  # the SDK format has no withdrawn status (R6)
    exported = run("disputes", "export", second["dispute_id"], *OPTS)
    assert exported.exit_code == 0, exported.output
    sdk = json.loads(exported.stdout)
    assert sdk["dispute_id"] == second["dispute_id"]
    Path("sdk.json").write_text(exported.stdout, encoding="utf-8")
    imported = run("disputes", "import", "sdk.json", *OPTS)
    assert imported.exit_code == 0, imported.output
    assert json.loads(imported.stdout) == {
        k: v for k, v in second.items() if k not in {"resolution", "party_escalated", "ledger_seqs"}
    }
    sdk["dispute_type"] = "policy_conflict"
    Path("tampered.json").write_text(json.dumps(sdk), encoding="utf-8")
    assert run("disputes", "import", "tampered.json", *OPTS).exit_code == 2


def test_r04_accord_sweep_escalates_a_dispute_whose_deadline_passed(run: Run) -> None:
    past = FrozenClock(datetime(2020, 1, 1, tzinfo=UTC))
    accord = Accord.open(db_url=DB, keys_dir="keys", clock=past)
    try:
        opened = accord.disputes.open(filing_data(evidence=[evidence(1)]))
    finally:
        accord.close()
    swept = run("sweep", *OPTS, "--json")
    assert swept.exit_code == 0, swept.output
    (fired,) = json.loads(swept.stdout)
    assert (fired["kind"], fired["subject_id"], fired["outcome"]) == (
        "dispute_tier",
        opened.dispute_id,
        "escalated",
    )
    shown = json.loads(run("disputes", "show", opened.dispute_id, *OPTS).stdout)
    assert shown["status"] == "escalated"
    assert shown["current_escalation_level"] == "contextual_arbitration"
    verified = run("verify", *OPTS)
    assert verified.exit_code == 0, verified.output


def test_accord_verify_counts_the_disputes_and_fails_naming_a_rewritten_dispute_row(
    run: Run,
) -> None:
    (opened,) = _open(run, filing_data())
    dispute_id = opened["dispute_id"]
    verified = run("verify", *OPTS)
    assert verified.exit_code == 0, verified.output
    assert "1 dispute(s)" in verified.output
    accord = Accord.open(db_url=DB, keys_dir="keys")
    try:
        with accord.db.write() as conn:
            conn.execute(
                update(dcp_disputes)
                .where(dcp_disputes.c.dispute_id == dispute_id)
                .values(status="resolved")
            )
    finally:
        accord.close()
    failed = run("verify", *OPTS, "--json")
    assert failed.exit_code == 1, failed.output
    assert "dcp_disputes" in failed.output
    assert dispute_id in failed.output
