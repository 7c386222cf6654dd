"""Each strategy chosen in accord.yaml, end to end through `accord settle FILE --config ...`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from accord import Accord

from ._support import (
    contradiction,
    copy_example_org,
    critical_opt_in,
    first_group_wins,
    ledger_events,
    numbers_tied,
    position_biased_judge,
    scripted_model,
    second_group_wins,
    write_config,
)
from .conftest import RunCli


def settle(cli: RunCli, database_url: str, payload: object) -> Any:
    """``accord settle case.json --config accord.yaml``; the printed JSON (exit code 0)."""
    Path("case.json").write_text(json.dumps(payload), encoding="utf-8")
    result = cli(
        "settle", "case.json", "--config", "accord.yaml", "--db", database_url, "--keys", "keys"
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def verify(cli: RunCli, database_url: str) -> dict[str, Any]:
    result = cli(
        "verify", "--config", "accord.yaml", "--db", database_url, "--keys", "keys", "--json"
    )
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    assert report["verified"] is True
    return report


def event_counts(database_url: str, tmp_path: Path) -> dict[str, int]:
    accord = Accord.open(tmp_path / "accord.yaml", db_url=database_url, keys_dir=tmp_path / "keys")
    try:
        return ledger_events(accord)
    finally:
        accord.close()


def request(subject: str, positions: list[dict[str, Any]]) -> dict[str, Any]:
    return {"subject": subject, "positions": positions}


def test_authority_from_yaml_lets_the_senior_side_win_on_the_command_line(
    cli: RunCli, database_url: str, tmp_path: Path
) -> None:
    write_config(
        tmp_path,
        {
            "org": copy_example_org(tmp_path),
            "conflict_resolution": critical_opt_in({"strategy": "authority"}),
        },
    )

    decisions = settle(
        cli,
        database_url,
        [
            request("Safe to migrate?", contradiction("agent:qa", "agent:eng-director")),
            request("Pay today?", contradiction("agent:backend", "agent:billing")),
        ],
    )

    senior, cross = decisions
    assert senior["status"] == "settled"
    assert senior["strategy"] == "authority"
    assert senior["winner"] == "agent:eng-director"
    assert senior["tier"] == "contextual_arbitration"
    assert senior["tokens"] == {"input": 0, "output": 0, "model_calls": 0}
    assert len(senior["dissent_ids"]) == 1
    # across branches under a human CEO, and no agent to ask: people decide
    assert cross["status"] == "escalated"
    assert cross["tier"] == "human_appeal"
    assert cross["approval_item_id"].startswith("apr:")
    assert verify(cli, database_url)["entries"] == 7
    assert event_counts(database_url, tmp_path) == {
        "dispute_opened": 2,
        "dispute_escalated": 3,
        "dispute_resolved": 1,
        "approval_requested": 1,
    }


def test_debate_from_yaml_settles_with_a_scripted_judge_on_the_command_line(
    cli: RunCli, database_url: str, tmp_path: Path
) -> None:
    write_config(
        tmp_path,
        {
            "org": copy_example_org(tmp_path),
            "conflict_resolution": critical_opt_in({"strategy": "debate"}),
            "model": scripted_model("All tests pass.", "Staging is red.", *second_group_wins()),
        },
    )

    decision = settle(
        cli, database_url, request("Release?", contradiction("agent:frontend", "agent:qa"))
    )

    assert decision["status"] == "settled"
    assert decision["rung"] == "debate"
    assert decision["strategy"] == "debate"
    assert decision["winner"] == "agent:qa"
    assert decision["answer"] is False
    assert decision["tier"] == "contextual_arbitration"
    assert decision["tokens"]["model_calls"] == 4
    assert decision["tokens"]["input"] > 0
    assert decision["tokens"]["output"] > 0
    shown = cli(
        "case",
        decision["case_id"],
        "--config",
        "accord.yaml",
        "--db",
        database_url,
        "--keys",
        "keys",
    )
    assert shown.exit_code == 0, shown.output
    [dissent] = json.loads(shown.stdout)["dissent"]
    assert dissent["arguments"] == {
        "agent:frontend": "All tests pass.",
        "agent:qa": "Staging is red.",
    }
    assert dissent["reasoning"] == "shipping is owed"
    verify(cli, database_url)


def test_human_from_yaml_queues_the_case_and_a_person_decides_on_the_command_line(
    cli: RunCli, database_url: str, tmp_path: Path
) -> None:
    write_config(
        tmp_path,
        {
            "conflict_resolution": {"strategy": "human"},
            "approvals": {"principals": {"human:alice": []}},
        },
    )
    common = ("--config", "accord.yaml", "--db", database_url, "--keys", "keys")

    queued = settle(cli, database_url, request("Total?", numbers_tied("agent:a", "agent:b")))
    made = cli("keys", "new", "--role", "reviewer", "--principal", "human:alice", *common)
    assert made.exit_code == 0, made.output
    key = ("--key", str(tmp_path / "keys" / "reviewer-human:alice.key.json"))
    listed = cli("approvals", "list", "--json", *common)
    decided = cli("approvals", "decide", queued["approval_item_id"], "1450", *key, *common)
    again = cli("approvals", "decide", queued["approval_item_id"], "1200", *key, *common)
    shown = cli("case", queued["case_id"], *common)

    assert queued["status"] == "escalated"
    assert queued["strategy"] == "human"
    assert queued["tier"] == "human_appeal"
    [item] = json.loads(listed.stdout)
    assert item["item_id"] == queued["approval_item_id"]
    assert item["options"] == ["1200", "1450"]
    assert decided.exit_code == 0, decided.output
    assert "chosen '1450' by human:alice" in decided.stdout
    assert again.exit_code == 1  # the second decision is refused
    assert "already approved" in " ".join(again.output.split())
    case = json.loads(shown.stdout)
    assert case["status"] == "settled"
    assert case["tier"] == "human_appeal"
    assert case["decision"]["winner"] == "agent:b"
    verify(cli, database_url)
    counts = event_counts(database_url, tmp_path)
    assert counts["approval_decided"] == 1
    assert counts["dispute_resolved"] == 1


def test_hybrid_from_yaml_decides_the_clear_case_and_queues_the_ambiguous_one(
    cli: RunCli, database_url: str, tmp_path: Path
) -> None:
    write_config(
        tmp_path,
        {
            "conflict_resolution": critical_opt_in({"strategy": "hybrid"}),
            "model": scripted_model(
                "Listed since May.",
                "A namesake.",
                *first_group_wins(0.95, "the listing matches the address"),
                "Listed since May.",
                "A namesake.",
                *position_biased_judge("cannot tell"),
            ),
        },
    )

    clear, ambiguous = settle(
        cli,
        database_url,
        [
            request("Vendor 88 sanctioned?", contradiction("agent:risk", "agent:sales")),
            request("Vendor 89 sanctioned?", contradiction("agent:risk", "agent:sales")),
        ],
    )

    assert clear["status"] == "settled"
    assert clear["rung"] == "hybrid"
    assert clear["winner"] == "agent:risk"
    assert clear["tokens"]["model_calls"] == 4
    assert ambiguous["status"] == "escalated"
    assert ambiguous["tier"] == "human_appeal"
    assert ambiguous["tokens"]["model_calls"] == 4
    shown = cli(
        "approvals",
        "show",
        ambiguous["approval_item_id"],
        "--config",
        "accord.yaml",
        "--db",
        database_url,
        "--keys",
        "keys",
    )
    assert (
        "Review agent agent:conflict-reviewer: cannot tell" in json.loads(shown.stdout)["analysis"]
    )
    verify(cli, database_url)


def test_an_unknown_strategy_in_yaml_stops_the_command_with_the_key_path(
    cli: RunCli, database_url: str, tmp_path: Path
) -> None:
    write_config(tmp_path, {"conflict_resolution": {"strategy": "majority"}})
    Path("case.json").write_text(
        json.dumps(request("Total?", numbers_tied("agent:a", "agent:b"))), encoding="utf-8"
    )

    result = cli(
        "settle", "case.json", "--config", "accord.yaml", "--db", database_url, "--keys", "keys"
    )

    assert result.exit_code == 2
    message = " ".join(result.output.split())
    assert "conflict_resolution.strategy" in message
    assert "unknown strategy 'majority'; valid: authority, debate, human, hybrid" in message
