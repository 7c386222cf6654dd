"""One database holding every kind of stored row the audit checks: cases settled at tier 1
(numbers, structured outputs, within one department), agreed, merged, decided by a person
(on an option, and on an outcome the person wrote), denied, expired by the sweeper,
escalated along a chain and still pending; their parties, dissent and approval items; a
ledger with checkpoints."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from accord.app import Accord
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.disputes import SettleStatus

ORG = Path(__file__).resolve().parents[3] / "src" / "accord" / "examples" / "org.yaml"
CONFIG = f"""\
org: {ORG}
conflict_resolution:
  strategy: human
approvals:
  timeout_policy:
    kind: escalation_chain
    steps:
      - {{role: team_lead, timeout_minutes: 30}}
      - {{role: head, timeout_minutes: 30}}
    on_chain_exhausted: deny
  principals:
    "human:alice": [team_lead, head]
ledger:
  checkpoint_every: 4
settle:
  allow_unknown_agents: true
"""
EVIDENCE = {"kind": "document", "reference": "erp:4411", "content": {"total": 100}}


def tied(subject: str, a: object, b: object) -> list[dict[str, object]]:
    return [
        {"agent": f"agent:{subject}-a", "output": a, "confidence": 0.5},
        {"agent": f"agent:{subject}-b", "output": b, "confidence": 0.5},
    ]


def populate(tmp_path: Path, url: str, clock: FrozenClock) -> Accord:
    config = tmp_path / "accord.yaml"
    config.write_text(CONFIG)
    accord = Accord.open(config, db_url=url, keys_dir=tmp_path / "keys", clock=clock)
    reviewer = Ed25519Signer.from_seed(b"\x0a" * 32)  # alice's reviewer key
    accord.register_reviewer_key(reviewer.public_key, "human:alice")
    settled = [
        accord.settle(
            "invoice total",
            [
                {
                    "agent": "agent:a",
                    "output": 100,
                    "confidence": 0.9,
                    "sources": ["erp"],
                    "assumptions": ["net of vat"],
                    "evidence": [EVIDENCE],
                    "reasoning": "the ledger says so",
                },
                {"agent": "agent:b", "output": 180.5, "confidence": 0.2},
            ],
            task_type="invoicing",
            session_id="sess-1",
        ),
        accord.settle(
            "shipment",
            [
                {
                    "agent": "agent:a",
                    "output": {"total": 1, "currency": "EUR"},
                    "confidence": 0.9,
                    "field_confidence": {"total": 0.8},
                },
                {"agent": "agent:c", "output": {"total": 2, "currency": "EUR"}, "confidence": 0.3},
            ],
            task_type="shipping",
        ),
        accord.settle(
            "index choice",
            [
                {"agent": "agent:backend-lead", "output": "btree", "confidence": 0.9},
                {"agent": "agent:backend", "output": "hash", "confidence": 0.4},
            ],
            task_type="engineering",
        ),
        accord.settle(
            "label",
            [{"agent": "agent:a", "output": "ok"}, {"agent": "agent:b", "output": "ok"}],
            task_type="labels",
        ),
        accord.settle(
            "report",
            [
                {"agent": "agent:a", "output": {"intro": "x"}, "task_subset": ["intro"]},
                {"agent": "agent:b", "output": {"body": "y"}, "task_subset": ["body"]},
            ],
            task_type="writing",
        ),
    ]
    assert all(c.status is not SettleStatus.ESCALATED for c in settled)
    approved = accord.settle("refund", tied("approved", 1200, 1450), task_type="refunds")
    denied = accord.settle("discount", tied("denied", 5, 7), task_type="discounts")
    expired = accord.settle("priority", tied("expired", "high", "low"), task_type="triage")
    written = accord.settle("rate", tied("written", 40, 90), task_type="rates")
    items = [c.approval_item_id for c in (approved, denied, expired, written)]
    assert all(items)
    item = accord.approvals.get(items[0] or "")
    accord.decide(item.item_id, reviewer, choice=item.options[0], reason="the contract says so")
    accord.decide(items[1] or "", reviewer, deny=True, reason="neither")
    accord.decide(items[3] or "", reviewer, outcome="neither: use 42", reason="the tariff")
    clock.advance(timedelta(minutes=31))
    assert accord.sweep()  # the chain offers the expired one to its next role
    escalated = accord.settle("sanctioned?", tied("escalated", True, False), task_type="sanctions")
    clock.advance(timedelta(minutes=31))
    assert accord.sweep()  # the chain is exhausted for one, the other moves on
    accord.settle("sanctioned again?", tied("pending", True, False), task_type="sanctions")
    long_a = "Keep the retry loop: " + "the upstream API drops one call in fifty. " * 8
    long_b = "Drop the retry loop: " + "retries doubled the load during the outage. " * 8
    accord.settle("retry?", tied("texts", long_a, long_b), task_type="retries")
    assert escalated.approval_item_id is not None
    return accord
