"""The reference SDK's smaller DCP-07 format (``dcp-ai``'s v2 schemas), as typed models.

Single respondent, five statuses, evidence as bare hashes, objections to directives, and one
composite Ed25519 + ML-DSA-65 signature under context ``DCP-AI.v2.Dispute``. The models accept
exactly what the SDK's JSON Schemas accept (``tests/vectors/dcp/schemas``), so an export that
builds one is valid there; the "DCP SDK interop" table in docs/disputes.md maps the fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool

from accord.crypto import CompositeSignature
from accord.dcp07.vocabulary import CaseStatus, DisputeType, Tier

SdkStatus = Literal["open", "in_negotiation", "arbitrated", "appealed", "resolved"]
SdkObjectionType = Literal["ethical", "safety", "policy_violation", "capability_mismatch"]


def _rfc3339(text: str) -> str:
    datetime.fromisoformat(text.replace("Z", "+00:00"))
    return text


SessionNonce = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
SdkId = Annotated[str, Field(min_length=6)]
SdkText = Annotated[str, Field(min_length=1)]
SdkTimestamp = Annotated[
    str,
    Field(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"),
    AfterValidator(_rfc3339),
]

EXPORTED_STATUS: Mapping[CaseStatus, SdkStatus] = MappingProxyType(
    {
        CaseStatus.OPEN: "open",
        CaseStatus.NEGOTIATING: "in_negotiation",
        CaseStatus.ESCALATED: "in_negotiation",  # as the SDK's escalate_dispute writes it
        CaseStatus.ARBITRATING: "arbitrated",
        CaseStatus.APPEALING: "appealed",
        CaseStatus.RESOLVED: "resolved",
    }
)
"""Accord status → SDK status; ``withdrawn`` and ``abandoned`` have none (export refuses)."""


def imported_status(status: SdkStatus, level: Tier) -> CaseStatus:
    """SDK status → Accord status: ``in_negotiation`` is ``negotiating`` at tier 1 and
    ``escalated`` (waiting at the tier it was escalated to) above it."""
    if status == "in_negotiation":
        return CaseStatus.NEGOTIATING if level is Tier.DIRECT_NEGOTIATION else CaseStatus.ESCALATED
    return {
        "open": CaseStatus.OPEN,
        "arbitrated": CaseStatus.ARBITRATING,
        "appealed": CaseStatus.APPEALING,
        "resolved": CaseStatus.RESOLVED,
    }[status]


class _SdkRecord(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    dcp_version: Literal["2.0"]
    session_nonce: SessionNonce
    timestamp: SdkTimestamp
    composite_sig: CompositeSignature


class SdkDisputeRecord(_SdkRecord):
    """``dispute_record.schema.json`` of the SDK."""

    dispute_id: SdkId
    initiator_agent_id: SdkId
    respondent_agent_id: SdkId
    dispute_type: DisputeType
    evidence_hashes: tuple[SdkText, ...]
    escalation_level: Tier
    status: SdkStatus


class SdkArbitrationResolution(_SdkRecord):
    """``arbitration_resolution.schema.json`` of the SDK."""

    dispute_id: SdkId
    arbitrator_ids: tuple[Annotated[str, Field(min_length=1)], ...] = Field(min_length=1)
    resolution: SdkText
    binding: StrictBool
    precedent_references: tuple[SdkText, ...] = ()


class SdkObjectionRecord(_SdkRecord):
    """``objection_record.schema.json`` of the SDK (an objection to a directive)."""

    objection_id: SdkId
    agent_id: SdkId
    directive_hash: SdkText
    objection_type: SdkObjectionType
    reasoning: SdkText
    proposed_alternative: SdkText | None = None
    human_escalation_required: StrictBool


SdkAuthorityLevel = Literal["local", "organizational", "cross_org"]


class SdkJurisprudenceBundle(_SdkRecord):
    """``jurisprudence_bundle.schema.json`` of the SDK."""

    jurisprudence_id: SdkId
    dispute_id: SdkId
    resolution_id: SdkId
    category: SdkText
    precedent_summary: SdkText
    applicable_contexts: tuple[SdkText, ...]
    authority_level: SdkAuthorityLevel


EXPORTED_AUTHORITY: Mapping[Tier, SdkAuthorityLevel] = MappingProxyType(
    {
        Tier.DIRECT_NEGOTIATION: "local",
        Tier.CONTEXTUAL_ARBITRATION: "organizational",
        Tier.HUMAN_APPEAL: "cross_org",
    }
)
"""Accord tier → SDK authority level, keeping the order (the SDK's levels are scopes, the
tiers are who decided: the mapping only preserves which outranks which, R24)."""

SdkRecord = (
    SdkDisputeRecord | SdkArbitrationResolution | SdkObjectionRecord | SdkJurisprudenceBundle
)
