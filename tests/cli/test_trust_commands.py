"""What a user's shell meets: an outside anchor for truncation, commands that only read
running no application code, and commands that never destroy a file they did not make."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from .conftest import Run

DB = "sqlite:///ledger.db"
KEYS = ("--db", DB, "--keys", "keys")


def _truncate(keep: int) -> None:
    with sqlite3.connect("ledger.db") as conn:
        conn.execute("DELETE FROM ledger_entries WHERE seq > ?", (keep,))
        conn.execute("DELETE FROM ledger_checkpoints WHERE tree_size > ?", (keep,))


def test_a_checkpoint_kept_outside_proves_the_ledger_still_extends_it(run: Run) -> None:
    run("demo", *KEYS, "--fresh")
    made = run("ledger", "checkpoint", *KEYS, "--out", "anchor.json")
    assert made.exit_code == 0, made.output
    assert json.loads(Path("anchor.json").read_text())["tree_size"] == 15
    run("demo", *KEYS)  # the ledger grows to 30
    ok = run("verify", *KEYS, "--trusted-checkpoint", "anchor.json")
    assert ok.exit_code == 0, ok.output
    _truncate(10)
    assert run("verify", *KEYS, "--skip-cases").exit_code == 0  # the database alone: blind
    bad = run("verify", *KEYS, "--skip-cases", "--trusted-checkpoint", "anchor.json")
    assert bad.exit_code == 1
    assert "entries 11..15 are missing" in bad.output
    assert "None" not in bad.output
    as_json = run("verify", *KEYS, "--json", "--trusted-checkpoint", "anchor.json")
    answer = json.loads(as_json.stdout)
    assert answer["verified"] is False
    assert answer["code"] == "ledger.truncated"
    assert (answer["context"]["missing_from"], answer["context"]["missing_to"]) == (11, 15)


def test_a_rebuilt_ledger_is_reported_as_forked_from_the_trusted_checkpoint(run: Run) -> None:
    run("demo", *KEYS, "--fresh")
    run("ledger", "checkpoint", *KEYS, "--out", "anchor.json")
    _truncate(0)
    with sqlite3.connect("ledger.db") as conn:
        for table in ("cases", "case_parties", "dissents", "approval_items", "parked_tasks"):
            conn.execute(f"DELETE FROM {table}")
    run("demo", *KEYS)  # the same key signs a new history of the same length
    bad = run("verify", *KEYS, "--trusted-checkpoint", "anchor.json")
    assert bad.exit_code == 1, bad.output
    assert "trusted checkpoint at size 15 (root_hash)" in bad.output


def test_checkpoint_and_proof_files_are_never_overwritten_without_force(run: Run) -> None:
    run("demo", *KEYS, "--fresh")
    Path("mine.json").write_text("precious")
    for command in (("ledger", "checkpoint"), ("ledger", "proof", "3")):
        refused = run(*command, *KEYS, "--out", "mine.json")
        assert refused.exit_code == 2, command
        assert "mine.json already exists" in refused.output
        assert "[files.exists]" in refused.output
        assert Path("mine.json").read_text() == "precious"
    forced = run("ledger", "checkpoint", *KEYS, "--out", "mine.json", "--force")
    assert forced.exit_code == 0, forced.output
    assert json.loads(Path("mine.json").read_text())["record_type"] == "ledger_checkpoint"


@pytest.mark.parametrize(
    ("content", "says"),
    [("not json", "not JSON"), ("{}", "record_type"), ("[1]", "not a JSON object")],
)
def test_an_unusable_trusted_checkpoint_file_exits_two_naming_it(
    run: Run, content: str, says: str
) -> None:
    run("demo", *KEYS, "--fresh")
    Path("anchor.json").write_text(content)
    result = run("verify", *KEYS, "--trusted-checkpoint", "anchor.json")
    assert result.exit_code == 2
    assert "anchor.json" in result.output
    assert says in result.output
    absent = run("verify", *KEYS, "--trusted-checkpoint", "absent.json")
    assert absent.exit_code == 2


def test_a_checkpoint_signed_by_a_stranger_is_not_trusted(run: Run) -> None:
    run("demo", "--db", "sqlite:///other.db", "--keys", "strangers", "--fresh")
    run("ledger", "checkpoint", "--db", "sqlite:///other.db", "--keys", "strangers", "--out", "x")
    run("demo", *KEYS, "--fresh")
    result = run("verify", *KEYS, "--trusted-checkpoint", "x")
    assert result.exit_code == 1
    assert "ledger.trust_root_mismatch" in result.output  # the file pins the stranger's key
    data = json.loads(Path("x").read_text())
    del data["trust_root"]  # a file written before checkpoints carried their pin
    Path("x").write_text(json.dumps(data))
    result = run("verify", *KEYS, "--trusted-checkpoint", "x")
    assert result.exit_code == 1
    assert "not a trusted service key" in result.output


def test_a_stored_checkpoint_that_is_not_json_or_empty_names_its_tree_size(run: Run) -> None:
    run("demo", *KEYS, "--fresh")
    run("ledger", "checkpoint", *KEYS)
    for body, says in ((b"not json", "not JSON"), (b"{}", "no 'tree_size'"), (b"[]", "object")):
        with sqlite3.connect("ledger.db") as conn:
            conn.execute("UPDATE ledger_checkpoints SET body = ? WHERE tree_size = 15", (body,))
        result = run("verify", *KEYS)
        assert result.exit_code == 1, result.output
        assert "checkpoint at size 15 (body)" in result.output
        assert says in result.output
        assert "None" not in result.output


def test_a_stored_checkpoint_at_size_zero_is_reported(run: Run) -> None:
    run("demo", *KEYS, "--fresh")
    run("ledger", "checkpoint", *KEYS)
    with sqlite3.connect("ledger.db") as conn:
        conn.execute("UPDATE ledger_checkpoints SET tree_size = 0 WHERE tree_size = 15")
    result = run("verify", *KEYS)
    assert result.exit_code == 1
    assert "checkpoint at size 0 (tree_size)" in result.output


def test_an_edited_checkpoint_signer_column_names_the_checkpoint_not_none(run: Run) -> None:
    run("demo", *KEYS, "--fresh")
    run("ledger", "checkpoint", *KEYS)
    with sqlite3.connect("ledger.db") as conn:
        conn.execute("UPDATE ledger_checkpoints SET signer_kid = 'x' WHERE tree_size = 15")
    result = run("verify", *KEYS)
    assert result.exit_code == 1
    assert "checkpoint at size 15 (signer_kid)" in result.output
    assert "None" not in result.output


@pytest.mark.parametrize("table", ["ledger_checkpoints", "ledger_entries", "cases", "dissents"])
def test_a_dropped_table_is_a_store_error_not_a_traceback(run: Run, table: str) -> None:
    run("demo", *KEYS, "--fresh")
    with sqlite3.connect("ledger.db") as conn:
        conn.execute("PRAGMA foreign_keys=OFF")
        conn.execute(f"DROP TABLE {table}")
    result = run("verify", *KEYS)
    assert result.exit_code == 2, result.output
    assert "[store.missing_table]" in result.output
    assert repr(table) in result.output
    as_json = run("verify", *KEYS, "--json")
    assert json.loads(as_json.stdout)["code"] == "store.missing_table"


BAD_PROBE = "boundary:\n  probes: {erp: 'no_such_module_anywhere:Probe'}\n"
UNREACHABLE_MODEL = (
    "model:\n  provider: openai_compatible\n  model: m\n"
    "  base_url: http://127.0.0.1:9\n  api_key_env: ACCORD_TEST_UNSET_KEY\n"
)


def test_commands_that_only_read_never_import_probes_or_build_a_model(run: Run) -> None:
    run("demo", *KEYS, "--fresh")
    Path("accord.yaml").write_text(BAD_PROBE + UNREACHABLE_MODEL)  # read from ./ by default
    case_id = json.loads(run("cases", *KEYS, "--json").stdout)[0]["case_id"]
    for args in (
        ("verify",),
        ("cases",),
        ("case", case_id),
        ("ledger", "tail"),
        ("ledger", "show", "1"),
        ("ledger", "checkpoint"),
        ("dissent", "list"),
        ("dissent", "summary"),
        ("approvals", "list"),
        ("boundaries", "pending"),
    ):
        result = run(*args, *KEYS)
        assert result.exit_code == 0, (args, result.output)


def test_a_bad_probe_path_fails_only_the_commands_that_run_probes_naming_the_key(
    run: Run,
) -> None:
    run("demo", *KEYS, "--fresh")
    Path("accord.yaml").write_text(BAD_PROBE)
    closed = run("session", "close", "s1", *KEYS)
    assert closed.exit_code == 2
    assert "boundary.probes.erp" in closed.output
    assert "no_such_module_anywhere" in closed.output
    resolved = run("boundaries", "resolve", "bnd:any", *KEYS)
    assert resolved.exit_code == 2
    assert "boundary.probes.erp" in resolved.output
    assert run("verify", *KEYS).exit_code == 0


def test_demo_fresh_removes_only_what_an_earlier_demo_created(run: Run) -> None:
    first = run("demo", *KEYS, "--fresh")
    assert first.exit_code == 0, first.output
    assert Path("ledger.db.accord-demo").is_file()
    assert Path("keys/.accord-demo").is_file()
    Path("keys/mine.txt").write_text("a file of my own")
    again = run("demo", *KEYS, "--fresh")
    assert again.exit_code == 0, again.output
    assert "15 signed entries" in again.output  # a fresh database
    assert Path("keys/mine.txt").read_text() == "a file of my own"
    assert not Path("keys/.accord-demo").exists()  # the folder existed: the demo did not make it


def test_demo_fresh_refuses_a_key_folder_it_did_not_create_and_removes_nothing(
    run: Run,
) -> None:
    run("demo", *KEYS, "--fresh")
    Path("private").mkdir()
    Path("private/signing.key").write_text("irreplaceable")
    result = run("demo", "--db", DB, "--keys", "private", "--fresh")
    assert result.exit_code == 2
    assert "will not remove private" in result.output
    assert Path("private/signing.key").read_text() == "irreplaceable"
    assert Path("ledger.db").exists()  # refused before anything was removed


def test_demo_fresh_refuses_a_database_it_did_not_create(run: Run) -> None:
    run("init", "--db", "sqlite:///work.db", "--keys", "work-keys")
    result = run("demo", "--db", "sqlite:///work.db", "--fresh")
    assert result.exit_code == 2
    assert "will not remove work.db" in result.output
    assert Path("work.db").exists()


def test_a_tampered_demo_marker_is_refused(run: Run) -> None:
    run("demo", *KEYS, "--fresh")
    Path("keys/.accord-demo").write_text(json.dumps({"files": ["../ledger.db"]}))
    result = run("demo", *KEYS, "--fresh")
    assert result.exit_code == 2
    assert "not a file name" in result.output
    Path("keys/.accord-demo").write_text("garbage")
    assert "unreadable" in run("demo", *KEYS, "--fresh").output


def test_report_never_overwrites_an_earlier_report_without_force(run: Run) -> None:
    run("demo", *KEYS, "--fresh")
    assert run("report", *KEYS, "--out", "rep").exit_code == 0
    again = run("report", *KEYS, "--out", "rep")
    assert again.exit_code == 2
    assert "rep/summary.json already exists" in again.output
    assert run("report", *KEYS, "--out", "rep", "--force").exit_code == 0


def test_a_witness_folder_receives_each_checkpoint_usable_as_a_trusted_checkpoint(
    run: Run,
) -> None:
    Path("accord.yaml").write_text("ledger:\n  checkpoint_every: 4\n  witnesses: [witness]\n")
    assert run("demo", *KEYS, "--fresh").exit_code == 0
    made = run("ledger", "checkpoint", *KEYS)
    assert made.exit_code == 0, made.output
    names = sorted(p.name for p in Path("witness").iterdir())
    assert names[-1] == "checkpoint-000000000015.json"
    published = (Path("witness") / names[-1]).read_text()
    assert published == made.stdout  # the witness file names the pinned trust root too
    (pub,) = Path("keys").glob("service-*.pub.json")
    assert json.loads(published)["trust_root"] in pub.name
    ok = run("verify", *KEYS, "--trusted-checkpoint", f"witness/{names[-1]}")
    assert ok.exit_code == 0, ok.output
