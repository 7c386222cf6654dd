"""`accord precedents add | search | show | export` from a user's shell."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from accord.clock import FrozenClock
from accord.crypto import Keyring
from accord.precedents import BundleDraft, PrecedentStore
from accord.store import open_database
from tests.conftest import REPO_ROOT
from tests.precedents.conftest import draft_data

from .conftest import Run

DB = "sqlite:///precedents.db"
OPTS = ("--db", DB, "--keys", "keys")


def _add(run: Run, *drafts: dict[str, Any], name: str = "drafts.json") -> list[dict[str, Any]]:
    Path(name).write_text(json.dumps(list(drafts)), encoding="utf-8")
    result = run("precedents", "add", name, *OPTS, "--json")
    assert result.exit_code == 0, result.output
    added: list[dict[str, Any]] = json.loads(result.stdout)
    return added


def test_r23_add_signs_each_draft_with_the_service_key_and_show_prints_it(run: Run) -> None:
    (bundle,) = _add(run, draft_data())
    assert bundle["signature"]["domain_sep"] == "DCP-DISPUTE-SIG-v2"
    (service_key,) = Path("keys").glob("service-*.pub.json")
    assert json.loads(service_key.read_text())["kid"] == bundle["signature"]["kid"]
    shown = run("precedents", "show", bundle["jurisprudence_id"], *OPTS)
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout) == {**bundle, "superseded_by": [], "filed_objections": []}


def test_r24_search_prints_a_table_ranked_by_authority_with_whole_ids(run: Run) -> None:
    low, high = _add(
        run, draft_data(), draft_data(authority_level="human_appeal", conditions=["night"])
    )
    result = run("precedents", "search", "--type", "resource_conflict", *OPTS)
    assert result.exit_code == 0, result.output
    assert result.stdout.index(high["jurisprudence_id"]) < result.stdout.index(
        low["jurisprudence_id"]
    )
    narrow = run(
        "precedents",
        "search",
        "--type",
        "resource_conflict",
        "--condition",
        "night",
        *OPTS,
        "--json",
    )
    assert [p["jurisprudence_id"] for p in json.loads(narrow.stdout)] == [high["jurisprudence_id"]]


def test_r26_search_json_carries_the_derived_superseded_by(run: Run) -> None:
    (old,) = _add(run, draft_data(authority_level="human_appeal"))
    (new,) = _add(run, draft_data(supersedes=[old["jurisprudence_id"]]), name="newer.json")
    result = run(
        "precedents", "search", "--type", "resource_conflict", "--limit", "5", *OPTS, "--json"
    )
    found = json.loads(result.stdout)
    assert [p["jurisprudence_id"] for p in found] == [
        new["jurisprudence_id"],
        old["jurisprudence_id"],
    ]
    assert found[1]["superseded_by"] == [new["jurisprudence_id"]]
    table = run("precedents", "search", "--type", "resource_conflict", *OPTS)
    assert table.stdout.count(new["jurisprudence_id"]) == 2  # its row, and the old one's


def test_add_refuses_a_bad_draft_naming_the_field_and_writes_nothing(run: Run) -> None:
    _add(run, draft_data())
    bad = draft_data()
    bad["summary"]["holding"] = "x" * 20_001
    Path("bad.json").write_text(json.dumps([draft_data(), bad]), encoding="utf-8")
    result = run("precedents", "add", "bad.json", *OPTS)
    assert result.exit_code == 2
    assert "bad.json: [1]: summary.holding" in result.stderr
    assert "precedents.invalid" in result.stderr
    listed = run("precedents", "search", "--type", "resource_conflict", *OPTS, "--json")
    assert len(json.loads(listed.stdout)) == 1


def test_add_refuses_a_superseded_by_field_and_malformed_json(run: Run) -> None:
    Path("derived.json").write_text(
        json.dumps({**draft_data(), "superseded_by": []}), encoding="utf-8"
    )
    derived = run("precedents", "add", "derived.json", *OPTS)
    assert derived.exit_code == 2
    assert "superseded_by" in derived.stderr
    assert "derived when reading" in derived.stderr
    Path("broken.json").write_text("{" * 100, encoding="utf-8")
    broken = run("precedents", "add", "broken.json", *OPTS)
    assert broken.exit_code == 2
    assert "limits.json_depth" in broken.stderr


def test_add_refuses_superseding_an_unknown_bundle_naming_r26(run: Run) -> None:
    unknown = "jur:019ad0f4-9999-7000-8000-000000000009"
    Path("d.json").write_text(json.dumps(draft_data(supersedes=[unknown])), encoding="utf-8")
    result = run("precedents", "add", "d.json", *OPTS)
    assert result.exit_code == 2
    assert "precedents.unknown_superseded" in result.stderr
    assert "R26" in result.stderr


def test_search_and_show_refuse_bad_input_and_unknown_ids(run: Run) -> None:
    _add(run, draft_data())
    bad_type = run("precedents", "search", "--type", "billing", *OPTS)
    assert bad_type.exit_code == 2
    assert "dispute_type" in bad_type.stderr
    bad_limit = run("precedents", "search", "--type", "policy_conflict", "--limit", "0", *OPTS)
    assert bad_limit.exit_code == 2
    assert "limit" in bad_limit.stderr
    missing = run("precedents", "show", "jur:019ad0f4-9999-7000-8000-000000000009", *OPTS)
    assert missing.exit_code == 1
    assert "precedents.not_found" in missing.stderr
    malformed = run("precedents", "show", "nonsense", *OPTS)
    assert malformed.exit_code == 2


def test_search_needs_an_existing_database(run: Run) -> None:
    result = run("precedents", "search", "--type", "policy_conflict", *OPTS)
    assert result.exit_code == 2
    assert "no database" in result.stderr


def test_the_example_draft_in_the_repository_is_accepted(run: Run) -> None:
    example = REPO_ROOT / "examples" / "precedents" / "draft.json"
    result = run("precedents", "add", str(example), *OPTS, "--json")
    assert result.exit_code == 0, result.output
    (bundle,) = json.loads(result.stdout)
    assert bundle["applicability"]["inapplicable_conditions"] == ["safety_critical_job"]


def test_the_search_table_never_cuts_an_id_on_a_narrow_terminal(run: Run) -> None:
    added = _add(run, draft_data(), draft_data(authority_level="human_appeal"))
    for width in ("200", "70"):
        table = run(
            "precedents", "search", "--type", "resource_conflict", *OPTS, env={"COLUMNS": width}
        ).stdout
        lines = table.splitlines()
        for bundle in added:  # whole, on one line, at any width
            assert any(bundle["jurisprudence_id"] in line for line in lines)
        assert "jur:" in table


def test_r23_verify_passes_on_an_intact_registry_and_names_a_tampered_bundle(run: Run) -> None:
    added = _add(run, draft_data(), draft_data())
    ok = run("precedents", "verify", *OPTS)
    assert ok.exit_code == 0, ok.output
    assert "VERIFIED 2 jurisprudence bundle(s)" in ok.stdout
    with sqlite3.connect("precedents.db") as conn:
        conn.execute(
            "UPDATE precedent_bundles SET document = replace(document, 'Split', 'Keep') "
            "WHERE seq = 2"
        )
    bad = run("precedents", "verify", *OPTS)
    assert bad.exit_code == 1
    assert "NOT VERIFIED" in bad.stderr
    assert f"bundle 2 ({added[1]['jurisprudence_id']})" in bad.stderr
    assert "precedents.registry_broken" in bad.stderr


def test_verify_trusts_only_the_service_key_unless_a_folder_of_panel_leads_is_named(
    run: Run, tmp_path: Path
) -> None:
    _add(run, draft_data())
    leads = tmp_path / "leads"
    keyring = Keyring(leads, FrozenClock())
    keyring.create("lead")
    lead = keyring.signer("lead")
    db = open_database(DB)
    try:
        PrecedentStore(db, FrozenClock()).add(BundleDraft.model_validate(draft_data()), lead)
    finally:
        db.dispose()
    untrusted = run("precedents", "verify", *OPTS)
    assert untrusted.exit_code == 1
    assert f"kid {lead.kid}, not a trusted key" in untrusted.stderr
    trusted = run("precedents", "verify", *OPTS, "--public-keys", str(leads))
    assert trusted.exit_code == 0, trusted.output
    assert "VERIFIED 2 jurisprudence bundle(s)" in trusted.stdout


def test_accord_verify_checks_the_registry_and_names_an_altered_bundle_column(run: Run) -> None:
    (bundle,) = _add(run, draft_data())
    assert run("verify", *OPTS).exit_code == 0
    with sqlite3.connect("precedents.db") as conn:
        conn.execute("UPDATE precedent_bundles SET authority_rank = authority_rank + 1")
    bad = run("verify", *OPTS, "--json")
    assert bad.exit_code == 1
    context = json.loads(bad.stdout)["context"]
    assert (context["table"], context["key"], context["column"]) == (
        "precedent_bundles",
        bundle["jurisprudence_id"],
        "authority_rank",
    )
    assert "precedent_bundles" in run("verify", *OPTS).output


def test_r23_export_prints_the_bundle_in_the_sdk_format_signed_by_the_service_key(
    run: Run,
) -> None:
    (bundle,) = _add(run, draft_data(conditions=["Two agents with equal priority"]))
    nonce = "ef" * 32
    result = run(
        "precedents", "export", bundle["jurisprudence_id"], "--session-nonce", nonce, *OPTS
    )
    assert result.exit_code == 0, result.output
    sdk = json.loads(result.stdout)
    assert sdk["applicable_contexts"] == ["Two agents with equal priority"]
    assert sdk["session_nonce"] == nonce
    assert sdk["composite_sig"]["classical"]["kid"] == bundle["signature"]["kid"]
    unknown = run("precedents", "export", "jur:nope", *OPTS)
    assert unknown.exit_code != 0
