"""``accord receipt ITEM_ID`` prints a decided item's signed receipt; ``accord receipt
--verify FILE`` checks it offline with public keys only and names a tampered field."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from accord.app import Accord

from ..e2e._support import reviewer_key
from .conftest import Run

DB = "sqlite:///receipts.db"


def _decided_item() -> str:
    Path("accord.yaml").write_text(
        yaml.safe_dump({"approvals": {"principals": {"human:alice": []}}}), encoding="utf-8"
    )
    accord = Accord.open("accord.yaml", db_url=DB, keys_dir=Path("keys"))
    try:
        case = accord.request_approval(
            "refund(order=991)", agent_id="agent:support", proposal={"order": 991}, gate="refunds"
        )
        assert case.approval_item_id is not None
        pending = case.approval_item_id
        second = accord.request_approval(
            "refund(order=992)", agent_id="agent:support", proposal={"order": 992}, gate="refunds"
        )
        accord.decide(pending, reviewer_key(accord, "human:alice"), choice="approve", reason="ok")
        assert second.approval_item_id is not None
        Path("pending.txt").write_text(second.approval_item_id)
    finally:
        accord.close()
    return pending


def _service_kid() -> str:
    [public] = Path("keys").glob("service-*.pub.json")
    return str(json.loads(public.read_text())["kid"])


def test_a_receipt_printed_by_the_cli_verifies_offline_and_a_tampered_one_does_not(
    run: Run,
) -> None:
    item_id = _decided_item()
    shown = run("receipt", item_id, "--db", DB, "--keys", "keys")
    assert shown.exit_code == 0, shown.output
    assert "human:alice" in shown.output
    saved = run("receipt", item_id, "--db", DB, "--keys", "keys", "--json", "--out", "r.json")
    assert json.loads(saved.stdout)["verdict"] == "chosen"
    pin = ("--public-keys", "keys", "--signer", _service_kid())
    checked = run("receipt", "--verify", "r.json", *pin)
    assert checked.exit_code == 0, checked.output
    assert "valid" in checked.output
    document = json.loads(Path("r.json").read_text())
    document["decided_by"] = "human:mallory"
    Path("forged.json").write_text(json.dumps(document))
    forged = run("receipt", "--verify", "forged.json", *pin)
    assert forged.exit_code == 1
    assert "decided_by" in forged.output


def test_an_undecided_item_and_bad_arguments_are_refused(run: Run) -> None:
    _decided_item()
    pending = Path("pending.txt").read_text()
    refused = run("receipt", pending, "--db", DB, "--keys", "keys")
    assert refused.exit_code == 1
    assert "approvals.pending" in refused.output
    assert run("receipt", "--db", DB, "--keys", "keys").exit_code == 2
    assert run("receipt", "--verify", "missing.json").exit_code == 2
