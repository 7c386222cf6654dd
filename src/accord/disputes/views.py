"""What the dispute service returns: a stored dispute, a summary line, a page of them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from accord.dcp07.dispute_record import DisputeRecord
from accord.dcp07.documents import record_document
from accord.dcp07.resolution_record import ResolutionRecord


class StoredDispute(BaseModel):
    """A dispute as it stands: its signed §4 record (status, level, evidence, precedents
    cited, timeline, escalation deadline), its §6 resolution once resolved, whether a party
    ever escalated it, and the ledger entries that sign its events."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    record: DisputeRecord
    resolution: ResolutionRecord | None = None
    party_escalated: bool = False
    ledger_seqs: tuple[int, ...] = ()

    @property
    def dispute_id(self) -> str:
        return self.record.dispute_id

    @property
    def status(self) -> str:
        return self.record.status.value

    @property
    def tier(self) -> str:
        return self.record.current_escalation_level.value

    def to_json_dict(self) -> dict[str, Any]:
        """The §4 record's fields, with the resolution and what the store adds beside them."""
        return {
            **record_document(self.record),
            "resolution": None if self.resolution is None else record_document(self.resolution),
            "party_escalated": self.party_escalated,
            "ledger_seqs": list(self.ledger_seqs),
        }


class DisputeSummary(BaseModel):
    """One line of a dispute listing."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str
    dispute_type: str
    severity: str
    status: str
    tier: str
    complainant: str
    respondents: tuple[str, ...] = ()
    opened_at: str
    updated_at: str
    escalation_deadline: str | None


class DisputePage(BaseModel):
    """A page of disputes, oldest first; ``next_after`` continues the listing (None: done)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    items: tuple[DisputeSummary, ...]
    next_after: str | None = None
