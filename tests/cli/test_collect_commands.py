"""``accord collect open | submit | show | list`` and ``accord sweep`` closing a collecting
case at its deadline, from a user's shell."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from accord.app import Accord
from accord.clock import FrozenClock

from .conftest import Run

DB = "sqlite:///collect.db"
OPTS = ("--db", DB, "--keys", "keys")


def _json(result: Any) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _open(run: Run, *parties: str) -> dict[str, Any]:
    args = [a for p in parties for a in ("--party", p)]
    opened: dict[str, Any] = _json(
        run("collect", "open", "Total of invoice 4411", *args, "--within", "3600", *OPTS, "--json")
    )
    return opened


def test_each_party_submits_its_own_file_and_the_last_settles_the_case(run: Run) -> None:
    opened = _open(run, "agent:billing", "agent:audit")
    assert opened["status"] == "collecting"
    assert opened["missing"] == ["agent:billing", "agent:audit"]
    Path("billing.json").write_text('{"output": 1200, "confidence": 0.9}', encoding="utf-8")
    Path("audit.yaml").write_text("output: 1450\nconfidence: 0.6\n", encoding="utf-8")
    cid = opened["collecting_id"]
    first = _json(
        run("collect", "submit", cid, "billing.json", "--by", "agent:billing", *OPTS, "--json")
    )
    assert first["submitted"] == ["agent:billing"]
    last = _json(
        run("collect", "submit", cid, "audit.yaml", "--by", "agent:audit", *OPTS, "--json")
    )
    assert last["status"] == "settled"
    case = _json(run("case", last["case_id"], *OPTS))
    assert case["decision"]["winner"] == "agent:billing"
    shown = _json(run("collect", "show", cid, *OPTS))
    assert shown == last
    table = run("collect", "list", *OPTS)
    assert table.exit_code == 0
    assert cid in table.stdout
    assert "settled" in table.stdout


def test_a_second_submission_and_a_non_party_exit_2_naming_the_rule(run: Run) -> None:
    cid = _open(run, "agent:billing", "agent:audit")["collecting_id"]
    Path("p.json").write_text('{"output": 1}', encoding="utf-8")
    assert run("collect", "submit", cid, "p.json", "--by", "agent:billing", *OPTS).exit_code == 0
    again = run("collect", "submit", cid, "p.json", "--by", "agent:billing", *OPTS)
    assert again.exit_code == 2
    assert "collecting.already_submitted" in again.output
    stranger = run("collect", "submit", cid, "p.json", "--by", "agent:nobody", *OPTS)
    assert stranger.exit_code == 2
    assert "collecting.not_a_party" in stranger.output


def test_a_position_file_that_is_not_one_object_is_refused(run: Run) -> None:
    cid = _open(run, "agent:billing", "agent:audit")["collecting_id"]
    Path("p.json").write_text('[{"output": 1}]', encoding="utf-8")
    refused = run("collect", "submit", cid, "p.json", "--by", "agent:billing", *OPTS)
    assert refused.exit_code == 2
    assert "collecting.bad_position" in refused.output


def test_an_unbounded_window_and_an_unknown_case_are_refused(run: Run) -> None:
    too_long = run(
        "collect", "open", "s", "--party", "a:1", "--party", "a:2", "--within", "99999999999",
        *OPTS,
    )  # fmt: skip
    assert too_long.exit_code == 2
    assert "within" in too_long.output
    _open(run, "a:1", "a:2")  # creates the database
    missing = run("collect", "show", "coll:nope", *OPTS)
    assert missing.exit_code == 1


def test_accord_sweep_settles_a_case_on_what_arrived_at_its_deadline(run: Run) -> None:
    past = FrozenClock(datetime(2020, 1, 1, tzinfo=UTC))
    accord = Accord.open(db_url=DB, keys_dir="keys", clock=past)
    try:
        opened = accord.collecting.open(
            "Total", ["agent:billing", "agent:audit", "agent:ops"],
            within=timedelta(hours=1), opened_by="admin",
        )  # fmt: skip
        accord.collecting.submit(
            opened.collecting_id, {"output": 1, "confidence": 0.9}, by="agent:billing"
        )
        accord.collecting.submit(
            opened.collecting_id, {"output": 2, "confidence": 0.4}, by="agent:ops"
        )
    finally:
        accord.close()
    swept = _json(run("sweep", *OPTS, "--json"))
    assert [(r["kind"], r["outcome"]) for r in swept] == [("collecting_case", "settled")]
    shown = _json(run("collect", "show", opened.collecting_id, *OPTS))
    assert (shown["status"], shown["missing"]) == ("settled", ["agent:audit"])
    listed = _json(
        run("collect", "list", "--status", "settled", "--party", "agent:ops", *OPTS, "--json")
    )
    assert [c["collecting_id"] for c in listed] == [opened.collecting_id]


def test_submit_sign_signs_with_the_partys_own_registered_agent_key(run: Run) -> None:
    keys = run("keys", "new", "--role", "agent", "--principal", "agent:billing", *OPTS)
    assert keys.exit_code == 0, keys.output
    cid = _open(run, "agent:billing", "agent:audit")["collecting_id"]
    Path("p.json").write_text('{"output": 1200, "confidence": 0.9}', encoding="utf-8")
    signed = _json(
        run("collect", "submit", cid, "p.json", "--by", "agent:billing", "--sign", *OPTS, "--json")
    )
    assert signed["signed"] == ["agent:billing"]
    no_key = run("collect", "submit", cid, "p.json", "--by", "agent:audit", "--sign", *OPTS)
    assert no_key.exit_code == 2
    assert _json(run("collect", "show", cid, *OPTS))["submitted"] == ["agent:billing"]
