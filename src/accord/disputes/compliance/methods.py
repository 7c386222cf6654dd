"""How compliance is checked: the verification methods Accord supports (R20).

DCP-07 names the method in ``outcome.compliance_verification_method`` ("usually audit-chain
review"). Accord supports exactly :data:`SUPPORTED_METHODS`; a binding resolution naming
another method is refused when its actions are tracked, never silently accepted.

``audit_chain_review``, numbered as it is checked, for each reported ledger entry:

1. the entry exists in this ledger;
2. it comes after the resolution's own entry (its seq is greater);
3. it was written no later than the action's deadline;
4. it is signed by this ledger's service key, or a service key the ledger registered that
   may sign at that seq (its signature is verified over the stored bytes);
5. it is by or about the agent: its record names the agent as ``actor``, ``agent_id`` or
   ``agent``;
6. it is not itself a compliance event.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from sqlalchemy import Connection, select

from accord.clock import isoformat
from accord.crypto import DISPUTE_SIG_TAG, Ed25519Signer, verify_ed25519
from accord.errors import SignatureInvalid
from accord.ledger.entry import entry_from_row
from accord.ledger.ledger import registry_within
from accord.ledger.stored_verification import ENTRY_COLUMNS
from accord.store.tables import ledger_entries

AUDIT_CHAIN_REVIEW: Final = "audit_chain_review"
SUPPORTED_METHODS: Final = frozenset({AUDIT_CHAIN_REVIEW})
"""The verification methods Accord can check."""

_TAG_PREFIX = DISPUTE_SIG_TAG.encode("utf-8") + b"\x00"
_NAMING_FIELDS = ("actor", "agent_id", "agent")
_COMPLIANCE_EVENTS = frozenset({"dispute_compliance_verified", "dispute_compliance_failed"})


def audit_chain_problems(
    conn: Connection,
    *,
    agent_id: str,
    seqs: Sequence[int],
    after_seq: int,
    due_at: datetime,
    service: Ed25519Signer,
) -> list[str]:
    """Why the reported entries do not show ``agent_id`` complied (empty: they do)."""
    rows = {
        int(row.seq): row
        for row in conn.execute(
            select(*ENTRY_COLUMNS).where(ledger_entries.c.seq.in_(list(seqs)))
        ).all()
    }
    registry = None
    problems: list[str] = []
    deadline = isoformat(due_at)
    for seq in seqs:
        row = rows.get(seq)
        if row is None:
            problems.append(f"entry {seq}: no such ledger entry")
            continue
        entry = entry_from_row(row._mapping)
        if seq <= after_seq:
            problems.append(f"entry {seq}: not after the resolution (entry {after_seq})")
            continue
        if entry.timestamp > deadline:
            problems.append(
                f"entry {seq}: written {entry.timestamp}, after the deadline {deadline}"
            )
            continue
        if entry.signer_kid == service.kid:
            key: bytes | None = service.public_key
        else:
            registry = registry or registry_within(conn)
            found = registry.key(entry.signer_kid)
            key = found.public_key if found and registry.may_sign(entry.signer_kid, seq) else None
        if key is None:
            problems.append(f"entry {seq}: signed by {entry.signer_kid}, not a service key")
            continue
        try:
            verify_ed25519(key, _TAG_PREFIX + bytes(row.body), bytes(row.signature))
        except SignatureInvalid:
            problems.append(f"entry {seq}: its signature does not verify")
            continue
        if not any(entry.record.get(name) == agent_id for name in _NAMING_FIELDS):
            problems.append(f"entry {seq}: its record does not name {agent_id}")
            continue
        if entry.event_type in _COMPLIANCE_EVENTS:
            problems.append(f"entry {seq}: a compliance event proves nothing by itself")
    return problems
