"""`accord approvals list | show | decide` and `accord sweep` from a person's shell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import Run

DB = "sqlite:///queue.db"
CONFIG = """\
conflict_resolution: {strategy: human}
approvals:
  timeout_policy: {kind: deny, timeout_minutes: 1}
  principals:
    "human:alice": [reviewer]
"""
REFUND = {
    "subject": "Refund 18k to a flagged customer?",
    "positions": [
        {"agent": "agent:support", "output": "approve", "reasoning": "loyal customer"},
        {"agent": "agent:risk", "output": "reject", "reasoning": "fraud flags"},
    ],
}


@pytest.fixture
def queued(run: Run, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr("getpass.getuser", lambda: "alice")
    Path("accord.yaml").write_text(CONFIG)
    Path("refund.json").write_text(json.dumps(REFUND))
    settled = run("settle", "refund.json", "--db", DB, "--keys", "keys")
    assert settled.exit_code == 0, settled.output
    case = json.loads(settled.stdout)
    assert case["status"] == "escalated"
    assert case["tier"] == "human_appeal"
    return str(case["approval_item_id"])


def test_a_person_lists_shows_and_decides_a_queued_case(run: Run, queued: str) -> None:
    listed = json.loads(run("approvals", "list", "--json", "--db", DB, "--keys", "keys").stdout)
    assert [i["item_id"] for i in listed] == [queued]
    assert "approve" in run("approvals", "list", "--db", DB, "--keys", "keys").output
    shown = json.loads(run("approvals", "show", queued, "--db", DB, "--keys", "keys").stdout)
    assert shown["options"] == ["approve", "reject"]
    assert {p["agent"] for p in shown["positions"]} == {"agent:support", "agent:risk"}
    decided = run(
        "approvals",
        "decide",
        queued,
        "--choice",
        "reject",
        "--reason",
        "fraud",
        "--db",
        DB,
        "--keys",
        "keys",
    )
    assert decided.exit_code == 0, decided.output
    assert "by human:alice" in decided.output
    again = run("approvals", "decide", queued, "--choice", "approve", "--db", DB, "--keys", "keys")
    assert again.exit_code == 1
    assert "already" in again.output
    cases = json.loads(run("cases", "--json", "--db", DB, "--keys", "keys").stdout)
    assert cases[0]["status"] == "settled"
    assert cases[0]["winner"] == "agent:risk"
    assert run("verify", "--db", DB, "--keys", "keys").exit_code == 0


def test_decide_needs_exactly_one_of_choice_or_deny(run: Run, queued: str) -> None:
    assert run("approvals", "decide", queued, "--db", DB).exit_code == 2
    assert run("approvals", "decide", queued, "--deny", "--choice", "x", "--db", DB).exit_code == 2
    assert (
        run(
            "approvals", "decide", queued, "--choice", "maybe", "--db", DB, "--keys", "keys"
        ).exit_code
        == 1
    )
    denied = run("approvals", "decide", queued, "--deny", "--db", DB, "--keys", "keys")
    assert denied.exit_code == 0
    assert "denied" in denied.output


def test_unknown_items_and_statuses_are_reported(run: Run, queued: str) -> None:
    assert run("approvals", "show", "apr:nope", "--db", DB, "--keys", "keys").exit_code == 1
    assert (
        run("approvals", "list", "--status", "bogus", "--db", DB, "--keys", "keys").exit_code == 2
    )


def test_sweep_applies_nothing_before_the_deadline(run: Run, queued: str) -> None:
    swept = run("sweep", "--db", DB, "--keys", "keys")
    assert swept.exit_code == 0
    assert "0 item(s) swept" in swept.output
    assert json.loads(run("sweep", "--json", "--db", DB, "--keys", "keys").stdout) == []
