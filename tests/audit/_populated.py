"""One database holding every kind of stored row the audit checks: cases settled at tier 1
(numbers, structured outputs, within one department), agreed, merged, decided by a person
(on an option, and on an outcome the person wrote), denied, expired by the sweeper,
escalated along a chain and still pending; their parties, dissent and approval items;
DCP-07 disputes through every tier (``_disputes``); boundaries handed to a successor (one
resolved after an inconclusive probe run, one pending) with their attempts; a DCP-07
dispute resolved, objected to and stayed by a reviewer; precedent bundles signed by the
service key and by a registered arbitrator key, with conditions and a supersession; a
ledger with checkpoints."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from accord.api import ApiKeyStore
from accord.app import Accord
from accord.boundary import ProbeFailed, ProbeResult, TieBreaker
from accord.cases import SettleStatus
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.precedents import BundleDraft, PrecedentStore
from tests.conftest import REPO_ROOT
from tests.disputes._rules import RESPONDENT, resolve

from ._disputes import ARBITRATOR_CONFIG, populate_disputes, populate_recommendation

ORG = REPO_ROOT / "src" / "accord" / "examples" / "org.yaml"
CONFIG = (
    f"""\
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
    + ARBITRATOR_CONFIG
)
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
    keys = ApiKeyStore(accord.ledger, accord.clock)  # API keys: one in use, one revoked
    month = clock.now() + timedelta(days=30)
    keys.create("reviewer", principal_id="human:alice", label="alice's browser", expires_at=month)
    keys.revoke(keys.create("agent", agent_id="agent:a")[0].key_id)
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
    populate_disputes(accord, clock)
    _handed_over(accord)
    _stayed(accord, reviewer)
    _precedents(accord, clock)
    advisory = tmp_path / "advisory.yaml"
    advisory.write_text(CONFIG + "  mode: advisory\n")
    second = Accord.open(advisory, db_url=url, keys_dir=tmp_path / "keys", clock=clock)
    try:
        populate_recommendation(second, clock)
    finally:
        second.close()
    return accord


class SecondTimeLucky:
    """A probe whose first run is inconclusive (no side maps to its answer), then 1450."""

    name = "erp_total"
    description = "Read the invoice total from the ERP"

    def __init__(self) -> None:
        self.runs = 0

    def run(self, arguments: Mapping[str, Any]) -> ProbeResult:
        self.runs += 1
        value = "9999" if self.runs == 1 else "1450"
        return ProbeResult(value=value, detail=f"ERP: invoice {arguments['invoice']} = {value}")


def _handed_over(accord: Accord) -> None:
    accord.probes.register(SecondTimeLucky())
    accord.boundaries.hints["handoff"] = TieBreaker(
        probe="erp_total", arguments={"invoice": "4411"}, description="the ERP's total"
    )
    for subject, task_type in (
        ("resolved", "handoff"),
        ("pending", "handoff"),
        ("unprobed", "handoff-unprobed"),  # no probe settles it: a boundary for a person
    ):
        accord.settle(
            f"handoff {subject}",
            [
                {
                    "agent": f"agent:{subject}-a",
                    "output": {"total": 1200, "currency": "EUR"},
                    "confidence": 0.8,
                },
                {
                    "agent": f"agent:{subject}-b",
                    "output": {"total": 1450, "currency": "EUR"},
                    "confidence": 0.75,
                },
            ],
            task_type=task_type,
            session_id="sess-handoff",
        )
    handed = accord.close_session("sess-handoff")
    (first,) = [b for b in handed if b.subject == "handoff resolved"]
    with pytest.raises(ProbeFailed):  # inconclusive: the attempt is recorded, still pending
        accord.boundaries.resolve(first.boundary_id)
    assert accord.boundaries.resolve(first.boundary_id).winner_agents == ("agent:resolved-b",)


def _stayed(accord: Accord, reviewer: Ed25519Signer) -> None:
    stored, resolution = resolve(accord.disputes, accord.clock, registered_on=accord.ledger)
    objection = accord.disputes.object(
        stored.dispute_id,
        resolution.resolution_id,
        RESPONDENT,
        "substantive",
        {
            "summary": "the log was ignored",
            "detailed_reasoning": "log:1",
            "evidence_references": [],
        },
        {"type": "rehearing", "description": "hear it again"},
    )
    accord.disputes.order_stay(objection.objection_id, accord.reviewer(reviewer), "hear it")


def _draft(**changes: Any) -> BundleDraft:
    return BundleDraft.model_validate(
        {
            "dispute_id": "disp:019ad0f4-0000-7000-8000-000000000001",
            "resolution_id": "res:019ad0f4-0000-7000-8000-000000000002",
            "classification": {
                "dispute_type": "resource_conflict",
                "resource_category": "gpu",
                "resolution_pattern": "first_booking",
                "tags": ["gpu"],
            },
            "summary": {"facts": "Two bookings.", "holding": "First wins.", "rationale": "Order."},
            "applicability": {
                "applicable_dispute_types": ["resource_conflict", "policy_conflict"],
                "applicable_conditions": ["shared_gpu"],
                "inapplicable_conditions": ["night"],
            },
            "authority_level": "direct_negotiation",
            "dispute_record_hash": "sha256:" + "a" * 64,
            "resolution_record_hash": "sha256:" + "b" * 64,
            **changes,
        }
    )


def _precedents(accord: Accord, clock: FrozenClock) -> None:
    first, second = accord.precedents.add_many([_draft(), _draft(authority_level="human_appeal")])
    lead = Ed25519Signer.from_seed(b"\x0b" * 32)  # a panel lead's arbitrator key
    accord.ledger.register_key(lead.public_key, "arbitrator", "agent:lead")
    clock.advance(timedelta(minutes=1))
    overruling = _draft(
        supersedes=[first.jurisprudence_id, second.jurisprudence_id],
        classification={
            "dispute_type": "policy_conflict",
            "resource_category": "gpu-night",
            "resolution_pattern": "rotation",
        },
        summary={
            "facts": "Bookings collide nightly.",
            "holding": "Rotate.",
            "rationale": "Fairness.",
            "dissent": "First booking should still win.",
        },
        applicability={
            "applicable_dispute_types": ["policy_conflict"],
            "applicable_conditions": ["night", "shared_gpu"],
        },
        objections=[
            {
                "objection_id": "obj:019ad0f4-0000-7000-8000-000000000003",
                "objection_type": "precedent",
                "status": "filed",
                "record_hash": "sha256:" + "c" * 64,
            }
        ],
    )
    PrecedentStore(accord.db, clock).add(overruling, lead)
