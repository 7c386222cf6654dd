"""Chaining a DCP-07 record to the ledger entry before it (R5, R19, R27).

``prev_hash`` / ``prev_hash_secondary`` are ``sha256:`` / ``sha3-256:`` over the canonical
bytes of the previous entry of the ledger the record is appended to; the first entry's
predecessor is the literal ``GENESIS`` for both.
"""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, ConfigDict

from accord.crypto import GENESIS, dual_hash
from accord.dcp07.fields import PrevHash, PrevHashSecondary
from accord.dcp07.refusal import refused
from accord.ledger.entry import ChainHead

_REQUIREMENT_OF = {
    "dispute_record": "R5",
    "arbitration_resolution": "R19",
    "objection_record": "R27",
}


class ChainLink(BaseModel):
    """The two predecessor hashes a record carries."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    prev_hash: PrevHash
    prev_hash_secondary: PrevHashSecondary


class Chained(Protocol):
    """Any record carrying the two predecessor hashes."""

    @property
    def record_type(self) -> str: ...

    @property
    def prev_hash(self) -> str: ...

    @property
    def prev_hash_secondary(self) -> str: ...


def chain_link(previous_canonical_bytes: bytes | None) -> ChainLink:
    """The link to the previous entry's canonical bytes; ``None`` (no previous entry) gives
    ``GENESIS`` for both hashes."""
    if previous_canonical_bytes is None:
        return ChainLink(prev_hash=GENESIS, prev_hash_secondary=GENESIS)
    primary, secondary = dual_hash(previous_canonical_bytes)
    return ChainLink(prev_hash=primary, prev_hash_secondary=secondary)


def chain_link_at(head: ChainHead) -> ChainLink:
    """The link to the ledger's last entry, from its head (the ledger has already hashed that
    entry's canonical bytes): equal to ``chain_link(<that entry's canonical bytes>)``."""
    return ChainLink(prev_hash=head.entry_hash, prev_hash_secondary=head.entry_hash_secondary)


def verify_chain_link(record: Chained, previous_canonical_bytes: bytes | None) -> None:
    """Return if ``record`` links to ``previous_canonical_bytes``; else raise a
    ``ValidationError`` naming the hash field that does not match."""
    expected = chain_link(previous_canonical_bytes)
    for field in ("prev_hash", "prev_hash_secondary"):
        found = getattr(record, field)
        wanted = getattr(expected, field)
        if found != wanted:
            raise refused(
                _REQUIREMENT_OF.get(record.record_type, "R40"),
                field,
                "the record links to the canonical bytes of the previous ledger entry",
                code="dcp.chain_mismatch",
                expected=wanted,
                found=found,
                record_type=record.record_type,
            )
