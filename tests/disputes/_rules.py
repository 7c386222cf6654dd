"""Shared helpers for the rules after a resolution (compliance, objections): a dispute filed
and resolved through ``Disputes``, with a signed binding resolution."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from accord.clock import Clock, isoformat
from accord.crypto import Ed25519Signer
from accord.dcp07 import ResolutionRecord, cosigned, read_record
from accord.disputes import Disputes, StoredDispute
from accord.ids import new_id
from accord.ledger import Ledger

COMPLAINANT = "agent-a"
RESPONDENT = "agent-b"


def key_of(name: str) -> Ed25519Signer:
    return Ed25519Signer.from_seed(hashlib.sha256(name.encode()).digest())


def filing(**changes: Any) -> dict[str, Any]:
    return {
        "dispute_type": "resource_conflict",
        "severity": "medium",
        "complainant": COMPLAINANT,
        "respondents": [RESPONDENT],
        "subject": "both booked the GPU for tonight",
        "evidence": [
            {
                "evidence_type": "log",
                "reference": "log:1",
                "description": "booking log",
                "content": {"booked": 1},
            }
        ],
        **changes,
    }


def resolve(
    disputes: Disputes,
    clock: Clock,
    *,
    dispute_id: str | None = None,
    actions: Sequence[tuple[str, str]] = ((RESPONDENT, "Release the GPU at 18:00 UTC"),),
    due_in: timedelta = timedelta(hours=6),
    resolution_type: str = "binding_resolution",
    method: str = "audit_chain_review",
    precedents_applied: Sequence[dict[str, str]] = (),
    registered_on: Ledger | None = None,
) -> tuple[StoredDispute, ResolutionRecord]:
    """File a dispute (unless given) and resolve it with a signed resolution whose required
    actions (agent, action) are due ``due_in`` from now. ``registered_on``: the ledger the
    parties' agent keys are registered on first (``verify`` checks the signatures)."""
    if registered_on is not None:
        registry = registered_on.key_registry()
        for agent in (COMPLAINANT, RESPONDENT):
            if registry.key(key_of(agent).kid) is None:
                registered_on.register_key(key_of(agent).public_key, "agent", agent)
    if dispute_id is None:
        dispute_id = disputes.open(filing()).dispute_id
    now = clock.now()
    document = {
        "resolution_id": new_id("res", now),
        "dispute_id": dispute_id,
        "resolution_level": "direct_negotiation",
        "resolution_type": resolution_type,
        "outcome": {
            "description": "agent-a keeps the GPU tonight",
            "actions_required": [
                {"agent_id": agent, "action": action, "deadline": isoformat(now + due_in)}
                for agent, action in actions
            ],
            "compliance_verification_method": method,
            "compliance_deadline": isoformat(now + due_in),
        },
        "reasoning": "agent-a booked first",
        "precedents_applied": list(precedents_applied),
        "effective_at": isoformat(now),
        "timestamp": isoformat(now),
        "prev_hash": "GENESIS",
        "prev_hash_secondary": "GENESIS",
        "signatures": [],
    }
    with disputes.transaction() as conn:
        link = disputes.chain_link_within(conn)
        document.update(link.model_dump())
        record = read_record(ResolutionRecord, document)
        for agent in (COMPLAINANT, RESPONDENT):
            record = cosigned(record, agent, key_of(agent))
        stored = disputes.resolve_within(conn, dispute_id, record, actor=COMPLAINANT)
    return stored, record
