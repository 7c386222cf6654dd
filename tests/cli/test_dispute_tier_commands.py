"""``accord disputes propose | accept | commit | reveal | nominate | panel | panel-propose |
vote | sign | recommendation-accept | appeal`` from a user's shell: each step signed with the
actor's key file."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from .conftest import Run

DB = "sqlite:///tiers.db"
OPTS = ("--db", DB, "--keys", "keys")
BILLING = {"agent_id": "agent:billing", "principal_id": "human:ana", "organization_id": "acme"}
AUDIT = {"agent_id": "agent:audit", "principal_id": "human:bo", "organization_id": "globex"}
CONFIG = """\
approvals:
  principals:
    "human:ana": [reviewer]
    "human:bo": [reviewer]
arbitrators:
  members:
    - {agent_id: "arb:00", principal_id: "human:c0", organization_id: acme, vitality: 900}
    - {agent_id: "arb:01", principal_id: "human:c1", organization_id: initech, vitality: 900}
    - {agent_id: "arb:02", principal_id: "human:c2", organization_id: acme, vitality: 900}
"""


def _key(run: Run, role: str, principal: str) -> str:
    made = run("keys", "new", "--role", role, "--principal", principal, *OPTS)
    assert made.exit_code == 0, made.output
    return f"keys/{role}-{principal}.key.json"


def _ok(run: Run, *args: str) -> Any:
    result = run("disputes", *args, *OPTS)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _open(run: Run, **changes: Any) -> str:
    filing = {
        "dispute_type": "resource_conflict",
        "severity": "high",
        "complainant": BILLING,
        "respondents": [AUDIT],
        "subject": "both booked the GPU for tonight",
        "evidence": [
            {"evidence_type": "log", "reference": "log:1", "description": "booking", "content": {}}
        ],
        **changes,
    }
    Path("filing.json").write_text(json.dumps(filing), encoding="utf-8")
    opened = _ok(run, "open", "filing.json", "--json")
    return str(opened[0]["dispute_id"])


def test_r07_r08_parties_negotiate_from_the_shell_with_their_agent_keys(run: Run) -> None:
    Path("accord.yaml").write_text(CONFIG, encoding="utf-8")
    billing = _key(run, "agent", "agent:billing")
    audit = _key(run, "agent", "agent:audit")
    dispute_id = _open(run)
    committed = _ok(run, "commit", dispute_id, "--choice", "seed", "--key", billing)
    assert committed["commitment"].startswith("sha256:")
    bad = run("disputes", "reveal", dispute_id, "--nonce", "00" * 32, "--choice", "seed",
              "--key", billing, *OPTS)  # fmt: skip
    assert bad.exit_code == 2
    assert "coin.reveal_too_early" in bad.output  # audit has not committed yet
    other = _ok(run, "commit", dispute_id, "--choice", "seed", "--key", audit)
    wrong = run("disputes", "reveal", dispute_id, "--nonce", "00" * 32, "--choice", "seed",
                "--key", billing, *OPTS)  # fmt: skip
    assert wrong.exit_code == 2
    assert "coin.reveal_mismatch" in wrong.output
    first = _ok(run, "reveal", dispute_id, "--nonce", committed["nonce_hex"], "--choice", "seed",
                "--key", billing)  # fmt: skip
    assert first == {"revealed": True}
    outcome = _ok(run, "reveal", dispute_id, "--nonce", other["nonce_hex"], "--choice", "seed",
                  "--key", audit)  # fmt: skip
    assert outcome["winner"] in ("agent:billing", "agent:audit")
    proposal = _ok(run, "propose", dispute_id, "--terms", "billing first", "--key", billing)
    accepted = _ok(run, "accept", dispute_id, proposal["proposal_id"], "--key", audit)
    assert accepted["resolution"]["resolution_level"] == "direct_negotiation"
    shown = _ok(run, "show", dispute_id)
    assert shown["status"] == "resolved"
    stranger = run("disputes", "propose", dispute_id, "--terms", "x", "--key",
                   _key(run, "reviewer", "human:ana"), *OPTS)  # fmt: skip
    assert stranger.exit_code == 2


def test_r16_r17_the_principals_decide_an_appeal_with_their_reviewer_keys(run: Run) -> None:
    Path("accord.yaml").write_text(CONFIG, encoding="utf-8")
    ana = _key(run, "reviewer", "human:ana")
    bo = _key(run, "reviewer", "human:bo")
    dispute_id = _open(run)
    _ok(run, "escalate", dispute_id, "--by", "agent:audit", "--to", "human_appeal", "--json")
    alone = run("disputes", "appeal", dispute_id, "--outcome", "mine", "--reasoning", "r",
                "--key", ana, *OPTS)  # fmt: skip
    assert alone.exit_code == 2
    assert "R16" in alone.output
    decided = _ok(run, "appeal", dispute_id, "--outcome", "audit first", "--reasoning",
                  "statutory", "--key", ana, "--key", bo)  # fmt: skip
    assert {s["agent_id"] for s in decided["signatures"]} == {"human:ana", "human:bo"}
    assert _ok(run, "show", dispute_id)["status"] == "resolved"


def test_r10_r14_a_panel_is_seated_votes_and_signs_from_the_shell(run: Run) -> None:
    Path("accord.yaml").write_text(CONFIG, encoding="utf-8")
    billing = _key(run, "agent", "agent:billing")
    audit = _key(run, "agent", "agent:audit")
    members = {a: _key(run, "arbitrator", a) for a in ("arb:00", "arb:01", "arb:02")}
    dispute_id = _open(run)
    _ok(run, "escalate", dispute_id, "--by", "agent:billing", "--json")
    nonces = {}
    for agent, key in (("agent:billing", billing), ("agent:audit", audit)):
        nonces[agent] = _ok(run, "commit", dispute_id, "--choice", "seed", "--key", key)
    for agent, key in (("agent:billing", billing), ("agent:audit", audit)):
        _ok(run, "reveal", dispute_id, "--nonce", nonces[agent]["nonce_hex"], "--choice", "seed",
            "--key", key)  # fmt: skip
    outsider = run("disputes", "nominate", dispute_id, "--arbitrator", "arb:99", "--key", billing,
                   *OPTS)  # fmt: skip
    assert outsider.exit_code == 2
    _ok(run, "nominate", dispute_id, "--arbitrator", "arb:00", "--arbitrator", "arb:01",
        "--key", billing)  # fmt: skip
    _ok(run, "nominate", dispute_id, "--arbitrator", "arb:02", "--key", audit)
    formed = _ok(run, "panel", dispute_id, "--question", "Who keeps the GPU?",
                 "--position", "agent:billing=booked first", "--position", "agent:audit=statute",
                 "--favours", "agent:billing", "--resolution", "billing keeps it")  # fmt: skip
    assert sorted(formed["selection"]["selected"]) == ["arb:00", "arb:01", "arb:02"]
    for agent, key in members.items():
        _ok(run, "vote", dispute_id, "approve", "--reasoning", f"{agent} agrees", "--key", key)
    assert _ok(run, "show", dispute_id)["status"] == "arbitrating"  # one signature of two
    signed = _ok(run, "sign", dispute_id, "--key", members["arb:00"])
    assert len(signed["signatures"]) >= 2
    assert _ok(run, "show", dispute_id)["status"] == "resolved"


HUMAN_CONFIG = """\
approvals:
  principals:
    "human:ana": [reviewer]
    "human:bo": [reviewer]
    "human:c0": [arbitrator]
    "human:c1": [arbitrator]
    "human:c2": [arbitrator]
arbitrators:
  members:
    - {agent_id: "arb:00", principal_id: "human:c0", organization_id: acme, vitality: 900,
       kind: human}
    - {agent_id: "arb:01", principal_id: "human:c1", organization_id: initech, vitality: 900,
       kind: human}
    - {agent_id: "arb:02", principal_id: "human:c2", organization_id: acme, vitality: 900,
       kind: human}
"""


def test_r14_human_members_vote_with_accord_approvals_decide(run: Run) -> None:
    Path("accord.yaml").write_text(HUMAN_CONFIG, encoding="utf-8")
    billing = _key(run, "agent", "agent:billing")
    audit = _key(run, "agent", "agent:audit")
    reviewers = {f"arb:0{i}": _key(run, "reviewer", f"human:c{i}") for i in range(3)}
    dispute_id = _open(run)
    _ok(run, "escalate", dispute_id, "--by", "agent:billing", "--json")
    nonces = {}
    for agent, key in (("agent:billing", billing), ("agent:audit", audit)):
        nonces[agent] = _ok(run, "commit", dispute_id, "--choice", "seed", "--key", key)
    for agent, key in (("agent:billing", billing), ("agent:audit", audit)):
        _ok(run, "reveal", dispute_id, "--nonce", nonces[agent]["nonce_hex"], "--choice", "seed",
            "--key", key)  # fmt: skip
    _ok(run, "nominate", dispute_id, "--arbitrator", "arb:00", "--arbitrator", "arb:01",
        "--key", billing)  # fmt: skip
    _ok(run, "nominate", dispute_id, "--arbitrator", "arb:02", "--key", audit)
    _ok(run, "panel", dispute_id, "--question", "Who keeps the GPU?",
        "--position", "agent:billing=booked first", "--position", "agent:audit=statute",
        "--favours", "agent:billing", "--resolution", "billing keeps it")  # fmt: skip
    listed = run("approvals", "list", "--json", *OPTS)
    assert listed.exit_code == 0, listed.output
    papers = {item["title"].split()[3]: item["item_id"] for item in json.loads(listed.stdout)}
    assert sorted(papers) == ["arb:00", "arb:01", "arb:02"]
    wrong = run("approvals", "decide", papers["arb:00"], "approve", "--reason", "not mine",
                "--key", reviewers["arb:01"], *OPTS)  # fmt: skip
    assert wrong.exit_code == 1
    assert "panels.decided_by_someone_else" in wrong.output
    for member, key in reviewers.items():
        decided = run("approvals", "decide", papers[member], "approve", "--reason",
                      f"{member} agrees", "--key", key, *OPTS)  # fmt: skip
        assert decided.exit_code == 0, decided.output
    assert _ok(run, "show", dispute_id)["status"] == "arbitrating"  # one signature of two
    signed = _ok(run, "sign", dispute_id, "--key", reviewers["arb:00"])
    assert len(signed["signatures"]) >= 2
    assert _ok(run, "show", dispute_id)["status"] == "resolved"


def test_r16_principals_decide_an_appeal_in_turn_from_the_shell(run: Run) -> None:
    Path("accord.yaml").write_text(CONFIG, encoding="utf-8")
    ana = _key(run, "reviewer", "human:ana")
    bo = _key(run, "reviewer", "human:bo")
    dispute_id = _open(run)
    _ok(run, "escalate", dispute_id, "--by", "agent:audit", "--to", "human_appeal", "--json")
    assert _ok(run, "appeal-pending", dispute_id) is None
    proposed = _ok(run, "appeal-propose", dispute_id, "--outcome", "audit first", "--reasoning",
                   "statutory", "--key", ana)  # fmt: skip
    assert (proposed["signed_by"], proposed["outstanding"]) == (["human:ana"], ["human:bo"])
    assert _ok(run, "appeal-pending", dispute_id)["proposal_id"] == proposed["proposal_id"]
    twice = run("disputes", "appeal-sign", dispute_id, "--proposal", proposed["proposal_id"],
                "--key", ana, *OPTS)  # fmt: skip
    assert twice.exit_code == 2
    assert "R16" in twice.output
    signed = _ok(run, "appeal-sign", dispute_id, "--proposal", proposed["proposal_id"],
                 "--key", bo)  # fmt: skip
    assert {s["agent_id"] for s in signed["resolution"]["signatures"]} == {"human:ana", "human:bo"}
    assert _ok(run, "show", dispute_id)["status"] == "resolved"


def test_r14_r19_a_member_proposes_a_resolution_with_an_action_from_the_shell(run: Run) -> None:
    Path("accord.yaml").write_text(CONFIG, encoding="utf-8")
    billing = _key(run, "agent", "agent:billing")
    audit = _key(run, "agent", "agent:audit")
    members = {a: _key(run, "arbitrator", a) for a in ("arb:00", "arb:01", "arb:02")}
    dispute_id = _open(run)
    _ok(run, "escalate", dispute_id, "--by", "agent:billing", "--json")
    nonces = {}
    for agent, key in (("agent:billing", billing), ("agent:audit", audit)):
        nonces[agent] = _ok(run, "commit", dispute_id, "--choice", "seed", "--key", key)
    for agent, key in (("agent:billing", billing), ("agent:audit", audit)):
        _ok(run, "reveal", dispute_id, "--nonce", nonces[agent]["nonce_hex"], "--choice", "seed",
            "--key", key)  # fmt: skip
    _ok(run, "nominate", dispute_id, "--arbitrator", "arb:00", "--arbitrator", "arb:01",
        "--key", billing)  # fmt: skip
    _ok(run, "nominate", dispute_id, "--arbitrator", "arb:02", "--key", audit)
    _ok(run, "panel", dispute_id, "--question", "Who keeps the GPU?",
        "--position", "agent:billing=booked first", "--position", "agent:audit=statute",
        "--favours", "agent:billing", "--resolution", "billing keeps it")  # fmt: skip
    due = (datetime.now(UTC) + timedelta(days=7)).isoformat()
    malformed = run("disputes", "panel-propose", dispute_id, "--favours", "agent:billing",
                    "--description", "x", "--action", "agent:audit|soon|move", "--key",
                    members["arb:00"], *OPTS)  # fmt: skip
    assert malformed.exit_code == 2
    proposed = _ok(run, "panel-propose", dispute_id, "--favours", "agent:billing",
                   "--description", "billing keeps it; audit moves its run",
                   "--action", f"agent:audit|{due}|move the run",
                   "--key", members["arb:00"])  # fmt: skip
    assert proposed["proposal"]["actions_required"][0]["action"] == "move the run"
    for agent, key in members.items():
        _ok(run, "vote", dispute_id, "approve", "--reasoning", f"{agent} agrees", "--key", key)
    _ok(run, "sign", dispute_id, "--key", members["arb:00"])
    shown = _ok(run, "show", dispute_id)
    assert shown["status"] == "resolved"
    (action,) = shown["resolution"]["outcome"]["actions_required"]
    assert (action["agent_id"], action["action"]) == ("agent:audit", "move the run")
    nothing = run("disputes", "recommendation-accept", dispute_id, "--key", audit, *OPTS)
    assert nothing.exit_code == 2  # resolved: nothing awaits the parties (R6)
