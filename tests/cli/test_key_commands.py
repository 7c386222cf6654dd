"""`accord keys new --role … --principal …` and `accord keys list`."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from .conftest import Run

DB = "sqlite:///keys.db"
CONFIG = 'approvals:\n  principals:\n    "human:alice": []\n'


def ledger_events(run: Run) -> list[str]:
    tail = run("ledger", "tail", "-n", "50", "--db", DB, "--keys", "keys", "--json")
    return [e["event_type"] for e in json.loads(tail.stdout)]


def test_a_reviewer_key_is_made_private_and_registered_in_the_ledger(run: Run) -> None:
    Path("accord.yaml").write_text(CONFIG)
    made = run("keys", "new", "--role", "reviewer", "--principal", "human:alice", "--db", DB,
               "--keys", "keys")  # fmt: skip
    assert made.exit_code == 0, made.output
    private = Path("keys/reviewer-human:alice.key.json")
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert ledger_events(run) == ["key_registered"]
    shown = json.loads(run("ledger", "show", "1", "--db", DB, "--keys", "keys").stdout)
    assert shown["record"]["principal"] == "human:alice"
    assert shown["record"]["role"] == "reviewer"
    assert run("verify", "--db", DB, "--keys", "keys").exit_code == 0


def test_a_reviewer_key_is_sealed_when_a_passphrase_is_configured(run: Run) -> None:
    Path("accord.yaml").write_text(CONFIG)
    env = {"ACCORD_KEY_PASSPHRASE": "correct horse"}
    made = run("keys", "new", "--role", "reviewer", "--principal", "human:alice", "--db", DB,
               "--keys", "keys", env=env)  # fmt: skip
    assert made.exit_code == 0, made.output
    sealed = json.loads(Path("keys/reviewer-human:alice.key.json").read_text())
    assert sealed["secret"]["protection"] != "none"


def test_a_refused_registration_leaves_no_key_behind(run: Run) -> None:
    Path("accord.yaml").write_text(CONFIG)
    refused = run("keys", "new", "--role", "reviewer", "--principal", "human:mallory", "--db", DB,
                  "--keys", "keys")  # fmt: skip
    assert refused.exit_code == 2
    assert "approvals.unconfigured_reviewer" in refused.output
    assert not list(Path("keys").glob("reviewer-*"))
    for bad in (
        ("--role", "god", "--principal", "human:alice"),
        ("--role", "service", "--principal", "human:alice"),
        ("--role", "reviewer"),
        ("--role", "reviewer", "--principal", "system:timeout"),
    ):
        assert run("keys", "new", *bad, "--db", DB, "--keys", "keys").exit_code == 2, bad
    assert run("keys", "new", "--keys", "keys").exit_code == 2  # no name, no role


def test_a_rotated_service_key_is_registered_by_the_current_one_and_verifies(
    run: Run,
) -> None:
    made = run("keys", "new", "service-2027", "--role", "service", "--db", DB, "--keys", "keys")
    assert made.exit_code == 0, made.output
    first = json.loads(run("keys", "list", "--keys", "keys", "--json").stdout)[0]
    assert first["name"] == "service"
    Path("accord.yaml").write_text(
        f"keys: {{service_key: service-2027, trust_root: {first['kid']}}}\n"
    )
    settled = run("ledger", "checkpoint", "--db", DB, "--keys", "keys")
    assert settled.exit_code == 0, settled.output
    assert run("verify", "--db", DB, "--keys", "keys").exit_code == 0


def test_keys_list_shows_kids_uncut_even_in_a_narrow_terminal(run: Run) -> None:
    run("keys", "new", "agent:a-rather-long-agent-name", "--keys", "keys")
    listed = run("keys", "list", "--keys", "keys", env={"COLUMNS": "60"})
    [info] = json.loads(run("keys", "list", "--keys", "keys", "--json").stdout)
    assert info["kid"] in listed.output
