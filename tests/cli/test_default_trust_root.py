"""Plain `accord verify` pins the trust root `accord init` wrote into accord.yaml (and that an
exported checkpoint carries): a ledger rebuilt under a replaced service.key.json fails it, and a
verification that pins nothing says so loudly (issue 31)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .conftest import Run

DB = "sqlite:///ledger.db"
KEYS = ("--db", DB, "--keys", "keys")


def _kid() -> str:
    (pub,) = Path("keys").glob("service-*.pub.json")
    return pub.name.removeprefix("service-").removesuffix(".pub.json")


def _pinned_init(run: Run) -> str:
    made = run("init", *KEYS)
    assert made.exit_code == 0, made.output
    kid = _kid()
    assert re.search(rf"^  trust_root: {kid}\b", Path("accord.yaml").read_text(), re.M)
    assert f"pinned   keys.trust_root {kid}" in made.output
    assert run("demo", *KEYS).exit_code == 0  # 15 entries under the pinned key
    ok = run("verify")
    assert ok.exit_code == 0, ok.output
    assert "WARNING" not in ok.output
    return kid


def _attack(run: Run, *, keep_old_public_key: bool) -> None:
    old = next(Path("keys").glob("service-*.pub.json"))
    kept = old.read_bytes()
    for path in Path("keys").iterdir():
        path.unlink()
    Path("ledger.db").unlink()
    assert run("demo", *KEYS).exit_code == 0  # a new key in the folder signs a new ledger
    if keep_old_public_key:
        old.write_bytes(kept)


def test_a_ledger_resigned_under_a_replaced_service_key_fails_the_default_verify(
    run: Run,
) -> None:
    kid = _pinned_init(run)
    _attack(run, keep_old_public_key=False)
    assert _kid() != kid
    bad = run("verify")
    assert bad.exit_code == 1, bad.output
    assert "NOT VERIFIED" in bad.output
    assert "ledger.trust_root_mismatch" in bad.output
    assert kid in bad.output


def test_the_old_public_key_left_in_the_folder_does_not_let_the_new_key_sign(run: Run) -> None:
    _pinned_init(run)
    _attack(run, keep_old_public_key=True)
    bad = run("verify", "--json")
    assert bad.exit_code == 1, bad.output
    assert json.loads(bad.stdout)["code"] == "ledger.untrusted_signer"


def test_a_verification_that_pins_nothing_warns_naming_the_risk_and_the_fix(run: Run) -> None:
    assert run("demo", *KEYS, "--fresh").exit_code == 0  # no accord.yaml: nothing pinned
    ok = run("verify", *KEYS)
    assert ok.exit_code == 0, ok.output
    warning = " ".join(ok.stderr.split())
    assert "WARNING" in warning
    assert "replaced service.key.json" in warning
    assert f"trust_root: {_kid()}" in warning
    as_json = run("verify", *KEYS, "--json")
    assert json.loads(as_json.stdout)["verified"] is True  # stdout stays JSON
    assert "WARNING" in as_json.stderr


def test_init_keeping_an_unpinned_config_warns(run: Run) -> None:
    Path("accord.yaml").write_text(
        f"database:\n  url: {DB}\nkeys:\n  directory: keys\n", encoding="utf-8"
    )
    kept = run("init")
    assert kept.exit_code == 0, kept.output
    assert "pins no trust root" in " ".join(kept.stderr.split())


def test_an_exported_checkpoint_carries_the_trust_root_and_verify_pins_it(run: Run) -> None:
    assert run("demo", *KEYS, "--fresh").exit_code == 0
    kid = _kid()
    made = run("ledger", "checkpoint", *KEYS, "--out", "anchor.json")
    assert made.exit_code == 0, made.output
    assert json.loads(Path("anchor.json").read_text())["trust_root"] == kid
    assert json.loads(made.stdout)["trust_root"] == kid
    ok = run("verify", *KEYS, "--trusted-checkpoint", "anchor.json")
    assert ok.exit_code == 0, ok.output
    assert "WARNING" not in ok.output
    _attack(run, keep_old_public_key=False)
    bad = run("verify", *KEYS, "--trusted-checkpoint", "anchor.json")
    assert bad.exit_code == 1, bad.output
    assert "ledger.trust_root_mismatch" in bad.output


def test_a_checkpoint_file_whose_trust_root_is_not_a_kid_is_unusable(run: Run) -> None:
    assert run("demo", *KEYS, "--fresh").exit_code == 0
    run("ledger", "checkpoint", *KEYS, "--out", "anchor.json")
    data = json.loads(Path("anchor.json").read_text())
    data["trust_root"] = "not a kid"
    Path("anchor.json").write_text(json.dumps(data))
    bad = run("verify", *KEYS, "--trusted-checkpoint", "anchor.json")
    assert bad.exit_code == 2, bad.output
    assert "trust_root is not a kid" in bad.output
