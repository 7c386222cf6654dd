"""`accord init | demo | verify | ledger … | keys …` from a user's shell."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from .conftest import Run

DB = "sqlite:///ledger.db"


def test_init_creates_the_database_the_service_key_and_example_config(run: Run) -> None:
    result = run("init", "--db", DB, "--keys", "keys")
    assert result.exit_code == 0, result.output
    assert Path("accord.yaml").is_file()
    assert Path("org.yaml").is_file()
    assert Path("ledger.db").is_file()
    assert len(list(Path("keys").glob("service-*.pub.json"))) == 1
    again = run("init", "--db", DB, "--keys", "keys")
    assert again.exit_code == 0, again.output  # idempotent


def test_demo_prints_a_verified_ledger(run: Run) -> None:
    result = run("demo", "--db", DB, "--keys", "keys", "--fresh")
    assert result.exit_code == 0, result.output
    assert "VERIFIED" in result.output
    assert "15 signed entries" in result.output


def test_verify_exits_zero_on_an_intact_ledger_and_one_naming_the_tampered_entry(run: Run) -> None:
    run("demo", "--db", DB, "--keys", "keys", "--fresh")
    ok = run("verify", "--db", DB, "--keys", "keys", "--json")
    assert ok.exit_code == 0
    assert json.loads(ok.stdout)["entries"] == 15
    with sqlite3.connect("ledger.db") as conn:
        body = conn.execute("SELECT body FROM ledger_entries WHERE seq = 5").fetchone()[0]
        conn.execute(
            "UPDATE ledger_entries SET body = ? WHERE seq = 5",
            (body.replace(b"agent:", b"agenX:", 1),),
        )
    bad = run("verify", "--db", DB, "--keys", "keys")
    assert bad.exit_code == 1
    assert "first bad entry: 5" in bad.output
    bad_json = run("verify", "--db", DB, "--keys", "keys", "--json")
    assert bad_json.exit_code == 1
    assert json.loads(bad_json.stdout)["context"]["seq"] == 5


def test_ledger_tail_show_and_checkpoint(run: Run) -> None:
    run("demo", "--db", DB, "--keys", "keys", "--fresh")
    tail = run("ledger", "tail", "-n", "2", "--db", DB, "--keys", "keys", "--json")
    assert [e["seq"] for e in json.loads(tail.stdout)] == [14, 15]
    assert "dispute_opened" in run("ledger", "tail", "--db", DB, "--keys", "keys").output
    show = run("ledger", "show", "4", "--db", DB, "--keys", "keys")
    assert json.loads(show.stdout)["event_type"] == "dispute_resolved"
    missing = run("ledger", "show", "99", "--db", DB, "--keys", "keys")
    assert missing.exit_code == 1
    beyond = run("ledger", "show", "99999999999999999999999", "--db", DB, "--keys", "keys")
    assert beyond.exit_code == 1
    assert "[ledger.no_entry]" in beyond.output
    checkpoint = run("ledger", "checkpoint", "--db", DB, "--keys", "keys", "--out", "cp.json")
    assert json.loads(checkpoint.stdout)["tree_size"] == 15
    assert json.loads(Path("cp.json").read_text())["tree_size"] == 15


def test_a_proof_made_by_the_cli_checks_offline_with_only_public_keys(run: Run) -> None:
    run("demo", "--db", DB, "--keys", "keys", "--fresh")
    made = run("ledger", "proof", "3", "--db", DB, "--keys", "keys", "--out", "proof.json")
    assert made.exit_code == 0
    public = Path("public")
    public.mkdir()
    for pub in Path("keys").glob("*.pub.json"):
        (public / pub.name).write_text(pub.read_text())
    pin = ("--signer", _service_kid(Path("keys")))
    checked = run("ledger", "check-proof", "proof.json", "--public-keys", "public", *pin)
    assert checked.exit_code == 0, checked.output
    assert "valid" in checked.output
    proof = json.loads(Path("proof.json").read_text())
    proof["entry"]["record"]["evidence_type"] = "forged"
    Path("forged.json").write_text(json.dumps(proof))
    forged = run("ledger", "check-proof", "forged.json", "--public-keys", "public", *pin)
    assert forged.exit_code == 1
    Path("junk.json").write_text("not json")
    assert run("ledger", "check-proof", "junk.json", "--public-keys", "public", *pin).exit_code == 2
    printed = run("ledger", "proof", "2", "--db", DB, "--keys", "keys")
    assert json.loads(printed.stdout)["leaf_index"] == 1
    assert run("ledger", "proof", "99", "--db", DB, "--keys", "keys").exit_code == 1


def test_a_consistency_proof_between_checkpoints_checks_offline(run: Run) -> None:
    run("demo", "--db", DB, "--keys", "keys", "--fresh")
    run("demo", "--db", DB, "--keys", "keys")  # the ledger grows by 15 more entries
    proof = run("ledger", "consistency", "15", "30", "--db", DB, "--keys", "keys")
    assert proof.exit_code == 0, proof.output
    Path("consistency.json").write_text(proof.stdout)
    pin = ("--signer", _service_kid(Path("keys")))
    checked = run("ledger", "check-proof", "consistency.json", "--public-keys", "keys", *pin)
    assert checked.exit_code == 0, checked.output
    assert run("ledger", "consistency", "14", "--db", DB, "--keys", "keys").exit_code == 1


def test_keys_new_and_list(run: Run) -> None:
    made = run("keys", "new", "agent:billing", "--keys", "keys", "--pq")
    assert made.exit_code == 0, made.output
    assert "ml-dsa-65" in made.output
    encrypted = run(
        "keys",
        "new",
        "reviewer",
        "--keys",
        "keys",
        "--encrypt",
        env={"ACCORD_KEY_PASSPHRASE": "correct horse"},
    )
    assert encrypted.exit_code == 0, encrypted.output
    listed = json.loads(run("keys", "list", "--keys", "keys", "--json").stdout)
    assert {k["name"]: k["encrypted"] for k in listed} == {"agent:billing": False, "reviewer": True}
    assert "agent:billing" in run("keys", "list", "--keys", "keys").output
    assert run("keys", "new", "reviewer", "--keys", "keys").exit_code == 2  # exists
    assert run("keys", "new", "x", "--keys", "keys", "--encrypt").exit_code == 2  # no passphrase


def test_demo_fresh_refuses_to_delete_a_non_sqlite_database(run: Run) -> None:
    result = run("demo", "--db", "postgresql+psycopg://nobody@127.0.0.1:1/x", "--fresh")
    assert result.exit_code == 2


def test_a_broken_config_file_fails_with_its_key_path(run: Run) -> None:
    Path("accord.yaml").write_text("ledger:\n  checkpoint_every: often\n")
    result = run("verify", "--db", DB)
    assert result.exit_code == 2
    assert "ledger.checkpoint_every" in result.output


def test_reading_commands_refuse_a_database_that_does_not_exist_and_create_nothing(
    run: Run,
) -> None:
    typo = "sqlite:///typo/nothere.db"
    for args in (("verify",), ("cases",), ("ledger", "tail"), ("report",)):
        result = run(*args, "--db", typo, "--keys", "keys")
        assert result.exit_code == 2, args
        assert "[store.no_database]" in result.output
    assert not Path("typo").exists()


def test_verify_refuses_a_worker_count_below_one(run: Run) -> None:
    run("demo", "--db", DB, "--keys", "keys", "--fresh")
    assert run("verify", "--db", DB, "--keys", "keys", "--workers", "-3").exit_code == 2


def test_verify_can_skip_the_case_tables(run: Run) -> None:
    run("demo", "--db", DB, "--keys", "keys", "--fresh")
    full = json.loads(run("verify", "--db", DB, "--keys", "keys", "--json").stdout)
    ledger_only = run("verify", "--db", DB, "--keys", "keys", "--json", "--skip-cases")
    assert full["cases"] > 0
    assert json.loads(ledger_only.stdout)["cases"] == 0


def _service_kid(keys: Path) -> str:
    [public] = keys.glob("service-*.pub.json")
    return str(json.loads(public.read_text())["kid"])


def test_a_proof_signed_by_a_key_that_is_not_the_pinned_signer_is_not_valid(run: Run) -> None:
    run("demo", "--db", DB, "--keys", "keys", "--fresh")
    run("ledger", "proof", "3", "--db", DB, "--keys", "keys", "--out", "proof.json")
    # a key dropped into the folder is not trusted by being there: only --signer is
    run("keys", "new", "intruder", "--keys", "keys")
    [intruder] = Path("keys").glob("intruder-*.pub.json")
    stranger = str(json.loads(intruder.read_text())["kid"])
    refused = run(
        "ledger", "check-proof", "proof.json", "--public-keys", "keys", "--signer", stranger
    )
    assert refused.exit_code == 1, refused.output
    assert "ledger.untrusted_signer" in refused.output or "unknown_key" in refused.output
    unknown = run("ledger", "check-proof", "proof.json", "--public-keys", "keys", "--signer", "x")
    assert unknown.exit_code == 2
