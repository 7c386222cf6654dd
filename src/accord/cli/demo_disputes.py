"""The DCP-07 disputes of the demo company (`accord demo-service`, what `make run` starts):
real filings through ``Accord.disputes``, left in several states — negotiated to a
resolution by the parties' own signed steps, waiting at each tier, appealed by a party to
people, and withdrawn."""

from __future__ import annotations

from accord.app import Accord
from accord.cli.key_commands import register_new_key
from accord.disputes import StoredDispute

#: The demo's pre-approved arbitrator pool (R10, R35: it spans organisations), as config.
ARBITRATORS = {
    "threshold": {"m": 2, "n": 3},
    "mode": "binding",
    "members": [
        {"agent_id": "arb:acme-1", "principal_id": "human:ceo", "organization_id": "acme",
         "vitality": 900},
        {"agent_id": "arb:initech-1", "principal_id": "human:ombud", "organization_id": "initech",
         "vitality": 850},
        {"agent_id": "arb:globex-1", "principal_id": "human:arbiter", "organization_id": "globex",
         "vitality": 910},
    ],
}  # fmt: skip


def _booking(reference: str, description: str, content: dict[str, str]) -> dict[str, object]:
    return {
        "evidence_type": "booking",
        "reference": reference,
        "description": description,
        "content": content,
    }


def file_demo_disputes(accord: Accord) -> list[StoredDispute]:
    """File the demo's disputes; returns each as it was left."""
    disputes = accord.disputes
    billing = accord.key_signer(register_new_key(accord, None, "agent", "agent:billing", None).name)
    audit = accord.key_signer(register_new_key(accord, None, "agent", "agent:audit", None).name)

    negotiated = disputes.open(
        dispute_type="resource_conflict",
        severity="medium",
        complainant="agent:billing",
        respondents=["agent:audit"],
        subject="Both booked the reporting database for the month-end run",
        evidence=[
            _booking("cal:month-end", "billing's booking", {"db": "reports", "from": "20:00"})
        ],
    )
    proposal = disputes.tiers.negotiation.propose(
        negotiated.dispute_id, billing, "billing runs first, audit starts at 23:00"
    )
    disputes.tiers.negotiation.accept(negotiated.dispute_id, audit, proposal.proposal_id)

    waiting = disputes.open(
        dispute_type="resource_conflict",
        severity="low",
        complainant="agent:audit",
        respondents=["agent:billing"],
        subject="Who keeps the spare reconciliation worker this week?",
    )
    arbitration = disputes.open(  # a directive conflict starts at contextual arbitration (R2)
        dispute_type="directive_conflict",
        severity="high",
        complainant="agent:billing",
        respondents=["agent:audit"],
        subject="Close the books on the 28th, or hold them open for the audit sample?",
    )
    appealed = disputes.open(
        dispute_type="policy_conflict",
        severity="medium",
        complainant="agent:audit",
        respondents=["agent:billing"],
        subject="May refunds above 5,000 skip the second approver at quarter end?",
    )
    disputes.escalate(appealed.dispute_id, by="agent:billing", to_tier="human_appeal")
    withdrawn = disputes.open(
        dispute_type="capability_conflict",
        severity="low",
        complainant="agent:billing",
        respondents=["agent:audit"],
        subject="Which agent formats the vendor statements?",
    )
    disputes.withdraw(withdrawn.dispute_id, by="agent:billing", reason="settled in stand-up")
    return [
        disputes.show(d.dispute_id) for d in (negotiated, waiting, arbitration, appealed, withdrawn)
    ]
