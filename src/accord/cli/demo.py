"""`accord demo`: a day in an agent company, settled through the real API and verified.

Five disagreements: an invoice total a source of truth settles, a ticket label seniority
settles, two complementary customer records merged, an engineering design debate judged by a
(scripted, offline) model, and a refund sent to people — parked, decided, resumed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from pydantic import JsonValue

from accord.app import Accord
from accord.cases import Case
from accord.cli.demo_disputes import ARBITRATORS
from accord.crypto import Ed25519Signer
from accord.ladder import SourceFinding

ARGUMENTS = (
    "Server-side sessions in Redis let us revoke a session instantly and keep cookies small.",
    "Signed cookies need no shared store, so every node stays stateless and cheap to scale.",
)
VERDICT = "Instant revocation is a security requirement for admin accounts; Redis meets it."


def demo_config(directory: Path) -> Path:
    """Write the demo's accord.yaml and org.yaml into ``directory``."""
    org = files("accord").joinpath("examples/org.yaml").read_text(encoding="utf-8")
    (directory / "org.yaml").write_text(org, encoding="utf-8")
    verdicts = [
        json.dumps({"winner": label, "reasoning": VERDICT, "confidence": 0.85})
        for label in ("A", "B")  # asked twice, positions swapped: the same party both times
    ]
    config = {
        "org": "org.yaml",
        "model": {"provider": "scripted", "model": "demo-judge", "script": [*ARGUMENTS, *verdicts]},
        "conflict_resolution": {
            "strategy": "authority",
            "departments": {
                "engineering": {
                    "strategy": "debate",
                    "tier1": ["source_verification", "confidence"],
                    "debate": {"judge": "manager", "max_tokens_per_argument": 120},
                }
            },
            "conflict_types": {
                "logical_conflict": {"strategy": "human", "tier1": ["source_verification"]}
            },
        },
        "approvals": {
            "timeout_policy": {
                "kind": "tiered",
                "tiers": {"high": {"timeout_minutes": 240, "on_timeout": "deny"}},
            },
            # not human:controller: she owns agent:billing, a party of the refund
            "principals": {"human:treasurer": ["finance_approver"]},
        },
        "arbitrators": ARBITRATORS,
    }
    path = directory / "accord.yaml"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")  # JSON is valid YAML
    return path


def pin_trust_root(config: Path, kid: str) -> None:
    """Record ``kid`` as ``keys.trust_root`` in the demo's accord.yaml (JSON, written by
    :func:`demo_config`): `accord verify` then pins the demo's service key."""
    data = json.loads(config.read_text(encoding="utf-8"))
    data.setdefault("keys", {})["trust_root"] = kid
    config.write_text(json.dumps(data, indent=2), encoding="utf-8")


class ErpTotals:
    """The ERP is the source of truth for invoice totals."""

    def lookup(self, subject: str, task_type: str, answers: Sequence[JsonValue]) -> SourceFinding:
        return SourceFinding(answer=1450, source="erp:invoice/4411")


def run_day(accord: Accord) -> tuple[list[Case], dict[str, Any]]:
    """Settle the day's disagreements; returns the cases and what the parked agent resumed with."""
    accord.verifiers.register("invoicing", ErpTotals())
    cases = [
        accord.settle(
            "Total of invoice 4411",
            [
                {"agent": "agent:billing", "output": 1200, "confidence": 0.9},
                {
                    "agent": "agent:audit",
                    "output": 1450,
                    "confidence": 0.7,
                    "reasoning": "a 250 shipping surcharge is missing",
                },
            ],
            task_type="invoicing",
        ),
        accord.settle(
            "Triage ticket #7781",
            [
                {"agent": "agent:backend", "output": "bug"},
                {"agent": "agent:frontend", "output": "bug"},
                {"agent": "agent:qa", "output": "feature"},
            ],
            task_type="triage",
        ),
        accord.settle(
            "Customer record ACME",
            [
                {
                    "agent": "agent:billing",
                    "output": {"legal_name": "ACME Logistics SAS", "vat_id": "FR12345678901"},
                },
                {
                    "agent": "agent:researcher",
                    "output": {"industry": "freight forwarding", "employees": 420},
                },
            ],
            task_type="crm",
        ),
        accord.settle(
            "Session storage for the admin console",
            [
                {"agent": "agent:backend", "output": "redis_sessions", "confidence": 0.8},
                {"agent": "agent:frontend", "output": "signed_cookies", "confidence": 0.75},
            ],
            task_type="architecture",
        ),
    ]
    refund = accord.settle(
        "Refund 18,000 to customer 5521",
        [
            {
                "agent": "agent:billing",
                "output": "approve",
                "confidence": 0.7,
                "reasoning": "loyal customer for six years",
            },
            {
                "agent": "agent:audit",
                "output": "reject",
                "confidence": 0.65,
                "reasoning": "three chargebacks this quarter",
            },
        ],
        task_type="refunds",
    )
    handle = accord.park(refund, "agent:billing", {"step": "refund-5521", "next": "notify"})
    assert refund.approval_item_id is not None
    # the treasurer's reviewer key, registered in the ledger, signs the decision (a demo key
    # lives only in memory: verifying needs just the public key the ledger registered)
    treasurer = Ed25519Signer.generate()
    accord.register_reviewer_key(treasurer.public_key, "human:treasurer")
    accord.decide(
        refund.approval_item_id,
        treasurer,
        choice="reject",
        reason="chargeback history outweighs tenure",
    )
    resumed = handle.poll()
    cases.append(accord.cases.get(refund.case_id))
    return cases, (
        {}
        if resumed is None
        else {
            "agent": resumed.agent_id,
            "context": resumed.context,
            "decision": resumed.decision.choice,
        }
    )
