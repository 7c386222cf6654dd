"""`accord disputes object | objections | stay | comply | compliance | flags` from a shell:
a party objects and reports compliance, a principal with a reviewer key stays a resolution."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from accord.app import Accord
from accord.clock import SystemClock
from tests.disputes._rules import COMPLAINANT, RESPONDENT, resolve

from .conftest import Run

DB = "sqlite:///rules.db"
CONFIG = """\
approvals:
  principals:
    "human:alice": [reviewer]
"""
ALICE_KEY = "keys/reviewer-human:alice.key.json"


@pytest.fixture
def resolved(run: Run) -> tuple[str, str, int]:
    """A dispute resolved with a binding resolution, and an entry by the respondent after it."""
    Path("accord.yaml").write_text(CONFIG)
    made = run(
        "keys", "new", "--role", "reviewer", "--principal", "human:alice", "--db", DB,
        "--keys", "keys",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    accord = Accord.open(Path("accord.yaml"), db_url=DB, keys_dir=Path("keys"))
    try:
        stored, resolution = resolve(accord.disputes, SystemClock(), registered_on=accord.ledger)
        seq = accord.ledger.append("agent_action_reported", {"actor": RESPONDENT}).seq
    finally:
        accord.close()
    return stored.dispute_id, resolution.resolution_id, seq


def test_r28_r29_a_party_objects_and_a_principal_stays_the_resolution(
    run: Run, resolved: tuple[str, str, int]
) -> None:
    dispute_id, resolution_id, _ = resolved
    common = ("--db", DB, "--keys", "keys")
    filed = run(
        "disputes", "object", dispute_id, "--resolution", resolution_id, "--by", RESPONDENT,
        "--type", "rights", "--summary", "No hearing", "--reasoning", "I was never heard.",
        "--remedy-type", "rehearing", "--remedy", "Hear me", "--evidence", "log:1", "--json",
        *common,
    )  # fmt: skip
    assert filed.exit_code == 0, filed.output
    objection = json.loads(filed.stdout)
    assert (objection["routed_to"], objection["status"]) == ("human_appeal", "under_review")
    waiting = run("disputes", "objections", "--awaiting-appeal", "--json", *common)
    assert [o["objection_id"] for o in json.loads(waiting.stdout)] == [objection["objection_id"]]
    unsigned = run("disputes", "stay", objection["objection_id"], *common)
    assert unsigned.exit_code == 2
    stayed = run(
        "disputes", "stay", objection["objection_id"], "--key", ALICE_KEY, "--reason", "hear it",
        *common,
    )  # fmt: skip
    assert stayed.exit_code == 0, stayed.output
    assert "by human:alice" in stayed.stdout
    listed = run("disputes", "objections", dispute_id, *common)
    assert "human:alice" in listed.stdout
    actions = run("disputes", "compliance", "--dispute", dispute_id, "--json", *common)
    assert [a["state"] for a in json.loads(actions.stdout)] == ["stayed"]
    verified = run("verify", *common)
    assert verified.exit_code == 0, verified.output


def test_r20_r21_a_party_reports_compliance_and_a_failed_report_exits_1(
    run: Run, resolved: tuple[str, str, int]
) -> None:
    dispute_id, _, _ = resolved
    common = ("--db", DB, "--keys", "keys")
    stranger = run("disputes", "comply", dispute_id, "--by", COMPLAINANT, "--entry", "1", *common)
    assert stranger.exit_code == 1
    assert "compliance.no_pending_action" in stranger.output
    failed = run(
        "disputes", "comply", dispute_id, "--by", RESPONDENT, "--entry", "1", "--json", *common
    )
    assert failed.exit_code == 1
    outcome = json.loads(failed.stdout)
    assert not outcome["complied"]
    assert outcome["failed"][0]["followup_dispute_id"].startswith("disp:")
    actions = run("disputes", "compliance", "--agent", RESPONDENT, *common)
    assert "failed" in actions.stdout
    flags = run("disputes", "flags", "--json", *common)
    assert json.loads(flags.stdout) == []
    verified = run("verify", *common)
    assert verified.exit_code == 0, verified.output


def test_r20_a_report_naming_the_agents_entry_after_the_resolution_verifies_it(
    run: Run, resolved: tuple[str, str, int]
) -> None:
    dispute_id, _, seq = resolved
    done = run(
        "disputes", "comply", dispute_id, "--by", RESPONDENT, "--entry", str(seq), "--db", DB,
        "--keys", "keys",
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "verified" in done.stdout
