"""Evidence content, content-addressed and stored once (R33).

Each submitted item's content is hashed by the DCP records' one rule
(:func:`~accord.dcp07.evidence_check.evidence_content_hash`); a hash the submitter gave
that does not match is refused (``dcp.evidence_hash_mismatch``, R33) before anything is
written. Content is kept in ``dcp_evidence_contents`` under its hash (a second submission of
the same content shares the row) and never updated; evidence items are insert-only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from accord.crypto import canonical_bytes, sha256_prefixed
from accord.dcp07.evidence_check import evidence_content_hash, verified_evidence
from accord.dcp07.evidence_item import EvidenceItem
from accord.disputes.filing import EvidenceInput
from accord.errors import CanonicalizationError
from accord.limits import exceeded
from accord.store.database import Database
from accord.store.tables import dcp_evidence_contents


@dataclass(frozen=True, slots=True)
class EvidenceContent:
    """One item's content as stored: ``bytes`` as given, or a JSON value's text (``json``)."""

    content_hash: str
    media: str
    content: bytes

    def value(self) -> Any:
        """The content as submitted: the bytes, or the JSON value."""
        return self.content if self.media == "bytes" else json.loads(self.content)


def submitted_evidence(
    given: EvidenceInput,
    *,
    evidence_id: str,
    submitted_by: str,
    submitted_at: str,
    field: str,
    max_bytes: int,
) -> tuple[EvidenceItem, EvidenceContent]:
    """The evidence item ``given`` makes, with its content to store; refused when the content
    is larger than ``max_bytes`` (``limits.output_bytes``) or does not hash to the hash given
    with it (R33)."""
    media, data, computed = _stored_form(given.content)
    if len(data) > max_bytes:
        raise exceeded(
            "output_bytes", max_bytes, len(data), field=f"{field}.content", unit="bytes",
            requirement="R33",
        )  # fmt: skip
    item = EvidenceItem(
        evidence_id=evidence_id,
        submitted_by=submitted_by,
        evidence_type=given.evidence_type,
        reference=given.reference,
        description=given.description,
        content_hash=given.content_hash or computed,
        submitted_at=submitted_at,
    )
    if given.content_hash is not None:
        verified_evidence(item, given.content)
    return item, EvidenceContent(computed, media, data)


def _stored_form(content: object) -> tuple[str, bytes, str]:
    """``(media, bytes stored, content hash)``. Float-free JSON is stored as its canonical
    bytes, whose SHA-256 *is* its content hash (the hashing rule's first case), so stored
    content rehashes to its key; other JSON is stored as sorted compact text and hashed by
    the rule itself."""
    if isinstance(content, bytes):
        return "bytes", content, sha256_prefixed(content)
    try:
        data = canonical_bytes(content)
    except CanonicalizationError:
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return "json", text.encode(), evidence_content_hash(content)
    return "json", data, sha256_prefixed(data)


def store_contents(conn: Connection, db: Database, contents: Sequence[EvidenceContent]) -> None:
    """Insert the contents not stored yet (content-addressed: a stored row is never changed)."""
    wanted = {c.content_hash: c for c in contents}
    if not wanted:
        return
    table = dcp_evidence_contents
    have = set(
        conn.execute(
            select(table.c.content_hash).where(table.c.content_hash.in_(sorted(wanted)))
        ).scalars()
    )
    rows = [
        {"content_hash": h, "media": c.media, "size": len(c.content), "content": c.content}
        for h, c in wanted.items()
        if h not in have
    ]
    db.insert_rows(conn, table, rows)


def load_content(conn: Connection, content_hash: str) -> EvidenceContent | None:
    """The stored content under ``content_hash`` (None if there is none)."""
    table = dcp_evidence_contents
    row = conn.execute(
        select(table.c.media, table.c.content).where(table.c.content_hash == content_hash)
    ).first()
    if row is None:
        return None
    return EvidenceContent(content_hash, str(row.media), bytes(row.content))
