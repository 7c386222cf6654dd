"""The §4, §6 and §8 examples of the DCP-07 text as documents (placeholders filled in), and
signers for them. Each call returns a fresh dict, so a test may change it freely."""

from __future__ import annotations

import hashlib
from typing import Any

from accord.crypto import Ed25519Signer, sha256_prefixed

DISPUTE_ID = "disp:019ad0f4-5c1e-7a3b-8c2d-0123456789ab"
RESOLUTION_ID = "res:019ad0f5-0000-7000-8000-00000000abcd"
OBJECTION_ID = "obj:019ad0f6-1111-7111-8111-111111111111"
JURISPRUDENCE_ID = "jur:019a0000-2222-7222-8222-222222222222"
COMPLAINANT = "agent:procurement-a"
RESPONDENT = "agent:procurement-b"
ARBITRATORS = ("agent:arbitrator-1", "agent:arbitrator-2", "agent:arbitrator-3")
PRINCIPALS = ("principal:alice", "principal:bob")


def signer_for(name: str) -> Ed25519Signer:
    """A deterministic key for ``name`` (tests only)."""
    return Ed25519Signer.from_seed(hashlib.sha256(name.encode()).digest())


def h(label: str) -> str:
    return sha256_prefixed(label.encode())


def party(agent: str, principal: str, org: str) -> dict[str, str]:
    return {"agent_id": agent, "principal_id": principal, "organization_id": org}


def dispute_document() -> dict[str, Any]:
    """The §4.1 example."""
    return {
        "dcp_version": "2.0",
        "record_type": "dispute_record",
        "dispute_id": DISPUTE_ID,
        "dispute_type": "resource_conflict",
        "severity": "medium",
        "status": "open",
        "current_escalation_level": "direct_negotiation",
        "complainant": party(COMPLAINANT, "principal:alice", "org:acme"),
        "respondents": [party(RESPONDENT, "principal:bob", "org:acme")],
        "subject": {
            "description": "Both agents require exclusive write access to the shared "
            "procurement database during the same time window",
            "resource_identifiers": ["resource:procurement-db:write-lock"],
            "related_intent_ids": ["intent:a", "intent:b"],
            "related_policy_ids": ["policy:db-access"],
            "related_audit_entries": ["evt:1", "evt:2"],
        },
        "evidence": [
            {
                "evidence_id": "evd:1",
                "submitted_by": COMPLAINANT,
                "evidence_type": "intent_declaration",
                "reference": "intent:a",
                "description": "Complainant's intent declaration for procurement database access",
                "content_hash": h("intent a"),
                "submitted_at": "2026-03-01T10:00:00Z",
            },
            {
                "evidence_id": "evd:2",
                "submitted_by": RESPONDENT,
                "evidence_type": "intent_declaration",
                "reference": "intent:b",
                "description": "Respondent's concurrent intent declaration for the same resource",
                "content_hash": h("intent b"),
                "submitted_at": "2026-03-01T10:01:00Z",
            },
        ],
        "precedents_cited": [
            {
                "jurisprudence_id": JURISPRUDENCE_ID,
                "relevance": "Previous resource conflict resolved by time-sharing",
            }
        ],
        "timeline": [
            {"event": "dispute_opened", "timestamp": "2026-03-01T10:05:00Z", "actor": COMPLAINANT}
        ],
        "escalation_deadline": "2026-03-01T14:05:00Z",
        "opened_at": "2026-03-01T10:05:00Z",
        "prev_hash": "GENESIS",
        "prev_hash_secondary": "GENESIS",
        "signature": None,
    }


def resolution_document() -> dict[str, Any]:
    """The §6.1 example (2-of-3 panel, one dissent), unsigned."""
    votes = ("approve", "approve", "dissent")
    return {
        "dcp_version": "2.0",
        "record_type": "arbitration_resolution",
        "resolution_id": RESOLUTION_ID,
        "dispute_id": DISPUTE_ID,
        "resolution_level": "contextual_arbitration",
        "resolution_type": "binding_resolution",
        "outcome": {
            "description": "Time-sharing: A writes 00:00-12:00 UTC, B 12:00-24:00 UTC",
            "actions_required": [
                {
                    "agent_id": COMPLAINANT,
                    "action": "Restrict writes to the 00:00-12:00 UTC window",
                    "deadline": "2026-03-02T00:00:00Z",
                },
                {
                    "agent_id": RESPONDENT,
                    "action": "Restrict writes to the 12:00-24:00 UTC window",
                    "deadline": "2026-03-02T00:00:00Z",
                },
            ],
            "compliance_verification_method": "audit_chain_review",
            "compliance_deadline": "2026-03-09T00:00:00Z",
        },
        "reasoning": "Both intents are equally valid; precedent favours time-sharing.",
        "precedents_applied": [
            {
                "jurisprudence_id": JURISPRUDENCE_ID,
                "applicability": "Directly applicable: same resource type, symmetric priority",
            }
        ],
        "panel": {
            "members": [
                {"agent_id": agent, "vote": vote, "reasoning_hash": h(f"reasoning {agent}")}
                for agent, vote in zip(ARBITRATORS, votes, strict=True)
            ],
            "threshold": {"m": 2, "n": 3},
            "votes_for": 2,
            "votes_against": 1,
        },
        "effective_at": "2026-03-01T16:00:00Z",
        "expires_at": "2026-06-01T00:00:00Z",
        "timestamp": "2026-03-01T15:30:00Z",
        "prev_hash": "GENESIS",
        "prev_hash_secondary": "GENESIS",
        "signatures": [],
    }


def human_appeal_document() -> dict[str, Any]:
    """A human appeal decision: the §6 shape, no panel, principals sign."""
    document = resolution_document()
    document.update(resolution_level="human_appeal", panel=None)
    return document


def objection_document() -> dict[str, Any]:
    """The §8.2 example, unsigned."""
    return {
        "dcp_version": "2.0",
        "record_type": "objection_record",
        "objection_id": OBJECTION_ID,
        "dispute_id": DISPUTE_ID,
        "resolution_id": RESOLUTION_ID,
        "objecting_party": {"agent_id": RESPONDENT, "principal_id": "principal:bob"},
        "objection_type": "procedural",
        "grounds": {
            "summary": "Arbitrator 3 had an undisclosed dependency on the respondent",
            "detailed_reasoning": "The audit chain shows 47 A2A sessions in the last 30 days.",
            "evidence_references": ["evt:session-1", "evt:session-2"],
            "precedent_references": [],
        },
        "requested_remedy": {
            "type": "panel_reconstitution",
            "description": "Reconstitute the panel with independent members and re-hear",
        },
        "status": "filed",
        "filed_at": "2026-03-01T17:00:00Z",
        "timestamp": "2026-03-01T17:00:00Z",
        "prev_hash": "GENESIS",
        "prev_hash_secondary": "GENESIS",
        "signature": None,
    }
