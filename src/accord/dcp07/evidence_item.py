"""One piece of evidence in a dispute record, content-addressed by ``sha256:<hex>`` (R5, R33)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from accord.dcp07.fields import Identifier, Sha256Hash, Text, Timestamp


class EvidenceItem(BaseModel):
    """What was submitted, by whom, when, and the hash of its content."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    evidence_id: Identifier
    submitted_by: Identifier
    evidence_type: Identifier
    reference: Identifier
    description: Text
    content_hash: Sha256Hash
    submitted_at: Timestamp
