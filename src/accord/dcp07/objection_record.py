"""The §8 objection record (R27, R40) and its parts: grounds and requested remedy."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from accord.dcp07.fields import (
    DisputeId,
    Identifier,
    JurisprudenceId,
    ObjectionId,
    PrevHash,
    PrevHashSecondary,
    ResolutionId,
    Text,
    Timestamp,
)
from accord.dcp07.parties import ObjectingParty
from accord.dcp07.signature_fields import DisputeSignature
from accord.dcp07.vocabulary import ObjectionStatus, ObjectionType


class Grounds(BaseModel):
    """Why the party objects, with the evidence and precedents it relies on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    summary: Text
    detailed_reasoning: Text
    evidence_references: tuple[Identifier, ...] = ()
    precedent_references: tuple[JurisprudenceId, ...] = ()


class RequestedRemedy(BaseModel):
    """What the objecting party asks for (e.g. ``panel_reconstitution``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: Identifier
    description: Text


class ObjectionRecord(BaseModel):
    """A DCP-07 objection record (§8.2). ``signature`` is ``None`` only on an unsigned draft."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dcp_version: Literal["2.0"] = "2.0"
    record_type: Literal["objection_record"] = "objection_record"
    objection_id: ObjectionId
    dispute_id: DisputeId
    resolution_id: ResolutionId
    objecting_party: ObjectingParty
    objection_type: ObjectionType
    grounds: Grounds
    requested_remedy: RequestedRemedy
    status: ObjectionStatus
    filed_at: Timestamp
    timestamp: Timestamp
    prev_hash: PrevHash
    prev_hash_secondary: PrevHashSecondary
    signature: DisputeSignature | None = None
