"""The closed vocabularies of DCP-07 records, one place each.

Dispute types, tiers (escalation levels), severities and case statuses are the house's own
enums, reused here so a record and a case never disagree on a spelling; the record-only
vocabularies (record types, resolution types, votes, objection types and statuses) live here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from accord.conflicts import DisputeType, Severity, Tier
from accord.dcp07.statuses import CaseStatus

DCP_VERSION: Final = "2.0"
"""The DCP-07 version Accord's records follow."""

__all__ = [
    "DCP_VERSION",
    "CaseStatus",
    "DisputeType",
    "ObjectionStatus",
    "ObjectionType",
    "RecordType",
    "ResolutionType",
    "Severity",
    "Tier",
    "Vote",
]


class RecordType(StrEnum):
    """The ``record_type`` of each DCP-07 record Accord signs (R40)."""

    DISPUTE_RECORD = "dispute_record"
    ARBITRATION_RESOLUTION = "arbitration_resolution"
    OBJECTION_RECORD = "objection_record"


class ResolutionType(StrEnum):
    """How a resolution binds the parties (R15)."""

    BINDING_RESOLUTION = "binding_resolution"
    RECOMMENDED_RESOLUTION = "recommended_resolution"
    SPLIT_DECISION = "split_decision"


class Vote(StrEnum):
    """A panel member's vote on the proposed resolution (R14, R19)."""

    APPROVE = "approve"
    DISSENT = "dissent"


class ObjectionType(StrEnum):
    """The four objection types of §8.3 (R27)."""

    SUBSTANTIVE = "substantive"
    PROCEDURAL = "procedural"
    PRECEDENT = "precedent"
    RIGHTS = "rights"


class ObjectionStatus(StrEnum):
    """Where an objection stands. The text shows only ``filed``; Accord settles the rest:
    a person reviews it and upholds or dismisses it, or its party withdraws it."""

    FILED = "filed"
    UNDER_REVIEW = "under_review"
    UPHELD = "upheld"
    DISMISSED = "dismissed"
    WITHDRAWN = "withdrawn"
