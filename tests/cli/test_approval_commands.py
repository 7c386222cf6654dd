"""`accord approvals list | show | decide` and `accord sweep` from a person's shell."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from accord.app import Accord
from accord.cases import SettleRequest
from accord.clock import FrozenClock

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


ALICE_KEY = "keys/reviewer-human:alice.key.json"


@pytest.fixture
def queued(run: Run) -> str:
    Path("accord.yaml").write_text(CONFIG)
    Path("refund.json").write_text(json.dumps(REFUND))
    settled = run("settle", "refund.json", "--db", DB, "--keys", "keys")
    assert settled.exit_code == 0, settled.output
    case = json.loads(settled.stdout)
    assert case["status"] == "escalated"
    assert case["tier"] == "human_appeal"
    made = run(
        "keys", "new", "--role", "reviewer", "--principal", "human:alice", "--db", DB,
        "--keys", "keys",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert "registered as reviewer for human:alice" in made.output
    return str(case["approval_item_id"])


def test_a_person_lists_shows_and_decides_a_queued_case(run: Run, queued: str) -> None:
    listed = json.loads(run("approvals", "list", "--json", "--db", DB, "--keys", "keys").stdout)
    assert [i["item_id"] for i in listed] == [queued]
    assert "approve" in run("approvals", "list", "--db", DB, "--keys", "keys").output
    shown = json.loads(run("approvals", "show", queued, "--db", DB, "--keys", "keys").stdout)
    assert shown["options"] == ["approve", "reject"]
    assert shown["verdict"] is None
    assert listed[0]["acting_deadline"] == shown["acting_deadline"]
    case_id = shown["case_id"]
    waiting = json.loads(run("case", case_id, "--db", DB, "--keys", "keys").stdout)
    assert waiting["verdict"] is None
    assert waiting["acting_deadline"] == shown["acting_deadline"]
    assert {p["agent"] for p in shown["positions"]} == {"agent:support", "agent:risk"}
    decided = run(
        "approvals",
        "decide",
        queued,
        "reject",
        "--reason",
        "fraud",
        "--key",
        ALICE_KEY,
        "--db",
        DB,
        "--keys",
        "keys",
    )
    assert decided.exit_code == 0, decided.output
    assert "chosen 'reject' by human:alice" in decided.output  # never "approved 'reject'"
    shown = json.loads(run("approvals", "show", queued, "--db", DB, "--keys", "keys").stdout)
    assert (shown["verdict"], shown["acting_deadline"]) == ("chosen", None)
    again = run(
        "approvals", "decide", queued, "approve", "--db", DB, "--keys", "keys",
        env={"ACCORD_REVIEWER_KEY": ALICE_KEY},
    )  # fmt: skip
    assert again.exit_code == 1
    assert "already" in again.output
    cases = json.loads(run("cases", "--json", "--db", DB, "--keys", "keys").stdout)
    assert cases[0]["status"] == "settled"
    assert cases[0]["winner"] == "agent:risk"
    verified = run("verify", "--db", DB, "--keys", "keys", "--json")
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.stdout)["signed_decisions"] == 1


def test_decide_needs_exactly_one_of_choice_or_deny(run: Run, queued: str) -> None:
    key = ("--key", ALICE_KEY, "--db", DB, "--keys", "keys")
    assert run("approvals", "decide", queued, *key).exit_code == 2
    assert run("approvals", "decide", queued, "--deny", "--choice", "x", *key).exit_code == 2
    assert run("approvals", "decide", queued, "x", "--choice", "x", *key).exit_code == 2
    assert run("approvals", "decide", queued, "--choice", "maybe", *key).exit_code == 1
    denied = run("approvals", "decide", queued, "--deny", *key)
    assert denied.exit_code == 0
    assert "denied" in denied.output


def test_a_person_decides_with_a_written_outcome_and_the_case_settles_on_it(
    run: Run, queued: str
) -> None:
    key = ("--key", ALICE_KEY, "--db", DB, "--keys", "keys")
    both = run("approvals", "decide", queued, "reject", "--outcome", "half", *key)
    assert both.exit_code == 2
    assert "exactly one of OPTION, --outcome or --deny" in both.output
    blank = run("approvals", "decide", queued, "--outcome", "  ", *key)
    assert (blank.exit_code, "outcome" in blank.output) == (1, True)
    decided = run(
        "approvals", "decide", queued, "--outcome", "refund half, then re-check",
        "--reason", "policy", *key,
    )  # fmt: skip
    assert decided.exit_code == 0, decided.output
    assert "written 'refund half, then re-check' by human:alice" in decided.output
    cases = json.loads(run("cases", "--json", "--db", DB, "--keys", "keys").stdout)
    assert (cases[0]["status"], cases[0]["winner"]) == ("settled", None)
    shown = json.loads(run("case", cases[0]["case_id"], "--db", DB, "--keys", "keys").stdout)
    assert shown["decision"]["answer"] == "refund half, then re-check"
    assert (shown["verdict"], shown["acting_deadline"]) == ("written", None)
    verified = run("verify", "--db", DB, "--keys", "keys", "--json")
    assert verified.exit_code == 0, verified.output


def test_without_a_key_the_os_login_never_decides_unless_the_config_opts_in(
    run: Run, queued: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOGNAME", "alice")
    monkeypatch.setenv("USER", "alice")
    refused = run("approvals", "decide", queued, "reject", "--db", DB, "--keys", "keys")
    assert refused.exit_code == 2
    assert "approvals.unconfigured_reviewer" in refused.output
    assert "allow_os_login" in refused.output
    assert json.loads(
        run("approvals", "show", queued, "--db", DB, "--keys", "keys").stdout
    )["status"] == "pending"


def test_an_opted_in_os_login_decides_only_as_a_configured_reviewer_and_is_counted_apart(
    run: Run, queued: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    Path("accord.yaml").write_text(CONFIG + "  allow_os_login: true\n")
    monkeypatch.setenv("LOGNAME", "mallory")
    monkeypatch.setenv("USER", "mallory")
    stranger = run("approvals", "decide", queued, "reject", "--db", DB, "--keys", "keys")
    assert stranger.exit_code == 2
    assert "human:mallory is not a configured reviewer" in " ".join(stranger.output.split())
    monkeypatch.setenv("LOGNAME", "alice")
    monkeypatch.setenv("USER", "alice")
    decided = run("approvals", "decide", queued, "reject", "--db", DB, "--keys", "keys")
    assert decided.exit_code == 0, decided.output
    verified = run("verify", "--db", DB, "--keys", "keys", "--json")
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.stdout)["os_login_decisions"] == 1
    assert "carry no reviewer signature" in run("verify", "--db", DB, "--keys", "keys").output


def test_a_key_that_is_not_a_registered_reviewer_key_cannot_decide(
    run: Run, queued: str
) -> None:
    made = run("keys", "new", "loose", "--keys", "keys")
    assert made.exit_code == 0, made.output
    refused = run(
        "approvals", "decide", queued, "reject", "--key", "keys/loose.key.json", "--db", DB,
        "--keys", "keys",
    )  # fmt: skip
    assert refused.exit_code == 2
    assert "not a registered, unrevoked reviewer key" in " ".join(refused.output.split())


def test_unknown_items_and_statuses_are_reported(run: Run, queued: str) -> None:
    assert run("approvals", "show", "apr:nope", "--db", DB, "--keys", "keys").exit_code == 1
    assert (
        run("approvals", "list", "--status", "bogus", "--db", DB, "--keys", "keys").exit_code == 2
    )


def test_sweep_applies_nothing_before_the_deadline(run: Run, queued: str) -> None:
    swept = run("sweep", "--db", DB, "--keys", "keys")
    assert swept.exit_code == 0
    assert "0 deadline(s) fired" in swept.output


def test_sweep_applies_every_due_deadline_beyond_one_batch_and_prints_counts(run: Run) -> None:
    Path("accord.yaml").write_text(CONFIG)
    past = FrozenClock(datetime(2020, 1, 1, tzinfo=UTC))  # every deadline has long passed
    accord = Accord.open("accord.yaml", db_url=DB, keys_dir="keys", clock=past)
    try:
        positions = json.loads(json.dumps(REFUND["positions"]))
        requests = [SettleRequest(f"refund {i}", positions, "default", None) for i in range(130)]
        assert all(c.approval_item_id for c in accord.settle_many(requests))
    finally:
        accord.close()
    swept = run("sweep", "--db", DB, "--keys", "keys")
    assert swept.exit_code == 0, swept.output
    assert "130 deadline(s) fired: 130 expired" in swept.output
    left = run("approvals", "list", "--db", DB, "--keys", "keys", "--json")
    assert json.loads(left.stdout) == []
    assert run("verify", "--db", DB, "--keys", "keys").exit_code == 0
    assert json.loads(run("sweep", "--json", "--db", DB, "--keys", "keys").stdout) == []
