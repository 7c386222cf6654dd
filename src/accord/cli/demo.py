"""The `accord demo` scenario: three realistic cases signed into a fresh ledger."""

from __future__ import annotations

from typing import Any

from accord.crypto import content_hash

Event = tuple[str, dict[str, Any]]


def _party(agent: str, principal: str) -> dict[str, str]:
    return {"agent_id": agent, "principal_id": principal, "organization_id": "org:acme"}


def _evidence(case: str, n: int, by: str, kind: str, content: dict[str, Any]) -> Event:
    return (
        "dispute_evidence_submitted",
        {
            "dispute_id": case,
            "evidence_id": f"ev:{case[5:13]}-{n}",
            "submitted_by": by,
            "evidence_type": kind,
            "content_hash": content_hash(content),
            "description": content.get("summary", ""),
        },
    )


def demo_events() -> list[Event]:
    """A day in an agent company: one case settled at tier 1, one by a panel, one parked."""
    invoice = "disp:6f1c0d3e-7a52-4c1b-9d0e-2f8b7c4a1e01"
    design = "disp:0b9e4d7a-3c21-4f6e-8a5d-9c1e2b3f4a02"
    refund = "disp:c4a2e8f1-5b3d-4e7c-a6f9-1d2e3c4b5a03"
    return [
        (
            "dispute_opened",
            {
                "dispute_id": invoice,
                "dispute_type": "resource_conflict",
                "severity": "medium",
                "current_escalation_level": "direct_negotiation",
                "complainant": _party("agent:billing", "human:cfo"),
                "respondents": [_party("agent:audit", "human:cfo")],
                "subject": {
                    "description": "Total of invoice 4411",
                    "resource_identifiers": ["invoice:4411"],
                },
                "positions": [
                    {"agent_id": "agent:billing", "output": 1200, "confidence_bp": 9000},
                    {"agent_id": "agent:audit", "output": 1450, "confidence_bp": 7000},
                ],
            },
        ),
        _evidence(
            invoice,
            1,
            "agent:billing",
            "source_lookup",
            {"summary": "ERP ledger line items sum to 1200", "rows": 14},
        ),
        _evidence(
            invoice,
            2,
            "agent:audit",
            "calculation",
            {"summary": "Includes a 250 shipping surcharge", "rows": 15},
        ),
        (
            "dispute_resolved",
            {
                "dispute_id": invoice,
                "resolution_id": "res:1d4f6a2b-8c3e-4d5f-9a1b-2c3d4e5f6a01",
                "resolution_level": "direct_negotiation",
                "rung": "source_verification",
                "winner": "agent:billing",
                "confidence_bp": 9500,
                "duration_ms": 3,
                "reasoning": "ERP source of truth confirms 1200; surcharge invoiced separately.",
                "dissent": [{"agent_id": "agent:audit", "position": 1450}],
            },
        ),
        (
            "dispute_opened",
            {
                "dispute_id": design,
                "dispute_type": "directive_conflict",
                "severity": "high",
                "current_escalation_level": "contextual_arbitration",
                "complainant": _party("agent:backend-lead", "human:cto"),
                "respondents": [_party("agent:frontend-lead", "human:cto")],
                "subject": {
                    "description": "Session storage: server-side Redis vs signed cookies",
                    "resource_identifiers": ["adr:0042"],
                },
            },
        ),
        (
            "dispute_negotiation_proposal",
            {
                "dispute_id": design,
                "proposed_by": "agent:frontend-lead",
                "proposal": "Signed cookies for anonymous users, Redis for logged-in sessions",
            },
        ),
        (
            "dispute_escalated",
            {
                "dispute_id": design,
                "from_level": "direct_negotiation",
                "to_level": "contextual_arbitration",
                "reason": "proposal rejected by complainant",
            },
        ),
        (
            "arbitration_panel_formed",
            {
                "dispute_id": design,
                "threshold": {"m": 2, "n": 3},
                "members": ["agent:arbiter-1", "agent:arbiter-2", "agent:arbiter-3"],
            },
        ),
        *[
            ("arbitration_vote_cast", {"dispute_id": design, "member": m, "vote": v})
            for m, v in (
                ("agent:arbiter-1", "approve"),
                ("agent:arbiter-2", "approve"),
                ("agent:arbiter-3", "dissent"),
            )
        ],
        (
            "dispute_resolved",
            {
                "dispute_id": design,
                "resolution_id": "res:7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a02",
                "resolution_level": "contextual_arbitration",
                "resolution_type": "binding_resolution",
                "winner": "agent:backend-lead",
                "votes_for": 2,
                "votes_against": 1,
                "dissent": [{"agent_id": "agent:frontend-lead"}, {"agent_id": "agent:arbiter-3"}],
            },
        ),
        (
            "dispute_opened",
            {
                "dispute_id": refund,
                "dispute_type": "policy_conflict",
                "severity": "critical",
                "current_escalation_level": "human_appeal",
                "complainant": _party("agent:support", "human:coo"),
                "respondents": [_party("agent:risk", "human:cfo")],
                "subject": {
                    "description": "Refund 18,000 to a flagged enterprise customer",
                    "related_policy_ids": ["policy:refund-limits"],
                },
            },
        ),
        (
            "dispute_escalated",
            {
                "dispute_id": refund,
                "from_level": "direct_negotiation",
                "to_level": "human_appeal",
                "reason": "critical severity without source verification never settles at tier 1",
            },
        ),
    ]
