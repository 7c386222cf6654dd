"""Evidence is content-addressed: its content must hash to its ``content_hash`` (R33).

The hashing rule is the conflicts room's (:class:`accord.conflicts.Evidence`): SHA-256 over the
dcp-jcs-v1 canonical bytes of a JSON value. Raw ``bytes`` (a document, a log file) are hashed
as they are.
"""

from __future__ import annotations

from accord.conflicts import Evidence
from accord.crypto import sha256_prefixed
from accord.dcp07.evidence_item import EvidenceItem
from accord.dcp07.refusal import refused


def evidence_content_hash(content: object) -> str:
    """``sha256:<hex>`` of ``content``: over the bytes themselves, or the canonical bytes of a
    JSON value."""
    if isinstance(content, bytes | bytearray | memoryview):
        return sha256_prefixed(bytes(content))
    return Evidence.of("evidence", content).content_hash


def verified_evidence(item: EvidenceItem, content: object) -> EvidenceItem:
    """``item`` once ``content`` hashes to its ``content_hash``; else refused (R33)."""
    computed = evidence_content_hash(content)
    if computed != item.content_hash:
        raise refused(
            "R33",
            "evidence.content_hash",
            "evidence content must hash to its content_hash",
            code="dcp.evidence_hash_mismatch",
            evidence_id=item.evidence_id,
            expected=item.content_hash,
            computed=computed,
        )
    return item
