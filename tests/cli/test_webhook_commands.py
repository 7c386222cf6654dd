"""`accord webhooks deliver`: one delivery pass (what the worker in `accord serve` repeats)."""

from __future__ import annotations

import json
from pathlib import Path

from accord.app import Accord
from accord.cases import SettleRequest

from .conftest import Run

DB = "sqlite:///hooks.db"
POSITIONS = [
    {"agent": "agent:support", "output": "approve", "reasoning": "loyal customer"},
    {"agent": "agent:risk", "output": "reject", "reasoning": "fraud flags"},
]


def test_deliver_attempts_each_due_delivery_once_and_keeps_a_failure_for_retry(run: Run) -> None:
    Path("accord.yaml").write_text("conflict_resolution: {strategy: human}\n")
    accord = Accord.open("accord.yaml", db_url=DB, keys_dir="keys")
    try:
        # port 9 (discard) on loopback: nothing listens, the connection is refused
        accord.webhooks.subscribe("http://127.0.0.1:9/hooks", ["item.waiting"])
        accord.settle_many([SettleRequest("refund 1", POSITIONS, "default", None)])
    finally:
        accord.close()
    first = run("webhooks", "deliver", "--json", "--db", DB, "--keys", "keys")
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert (report["delivered"], report["retrying"], report["failed"]) == (0, 1, 0)
    again = run("webhooks", "deliver", "--db", DB, "--keys", "keys")
    assert "0 delivered, 0 to retry" in again.output  # not due before its backoff
    listed = json.loads(run("webhooks", "list", "--db", DB, "--keys", "keys").stdout)
    assert [s["url"] for s in listed] == ["http://127.0.0.1:9/hooks"]
    assert "secret" not in json.dumps(listed)
