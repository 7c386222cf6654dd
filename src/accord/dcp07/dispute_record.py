"""The §4 dispute record (R5, R40) and its parts: subject, precedent citation, timeline event."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.dcp07.evidence_item import EvidenceItem
from accord.dcp07.fields import (
    DisputeId,
    Identifier,
    JurisprudenceId,
    PrevHash,
    PrevHashSecondary,
    Text,
    Timestamp,
)
from accord.dcp07.parties import Party
from accord.dcp07.refusal import refused
from accord.dcp07.signature_fields import DisputeSignature
from accord.dcp07.vocabulary import CaseStatus, DisputeType, Severity, Tier


class Subject(BaseModel):
    """What the dispute is about, and what it points at."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    description: Text
    resource_identifiers: tuple[Identifier, ...] = ()
    related_intent_ids: tuple[Identifier, ...] = ()
    related_policy_ids: tuple[Identifier, ...] = ()
    related_audit_entries: tuple[Identifier, ...] = ()


class PrecedentCitation(BaseModel):
    """A precedent cited when the dispute was opened (R24), and why it is relevant."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    jurisprudence_id: JurisprudenceId
    relevance: Text


class TimelineEvent(BaseModel):
    """One dated step of the dispute and who took it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    event: Identifier
    timestamp: Timestamp
    actor: Identifier


class DisputeRecord(BaseModel):
    """A DCP-07 dispute record (§4.1). ``signature`` is ``None`` only on an unsigned draft;
    :func:`accord.dcp07.sign_record` returns the signed copy."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dcp_version: Literal["2.0"] = "2.0"
    record_type: Literal["dispute_record"] = "dispute_record"
    dispute_id: DisputeId
    dispute_type: DisputeType
    severity: Severity
    status: CaseStatus
    current_escalation_level: Tier
    complainant: Party
    respondents: tuple[Party, ...] = Field(min_length=1)
    subject: Subject
    evidence: tuple[EvidenceItem, ...] = ()
    precedents_cited: tuple[PrecedentCitation, ...] = ()
    timeline: tuple[TimelineEvent, ...] = ()
    escalation_deadline: Timestamp | None
    opened_at: Timestamp
    prev_hash: PrevHash
    prev_hash_secondary: PrevHashSecondary
    signature: DisputeSignature | None = None

    @model_validator(mode="after")
    def _parties_and_evidence_are_distinct(self) -> Self:
        agents = [self.complainant.agent_id, *(r.agent_id for r in self.respondents)]
        if len(set(agents)) != len(agents):
            raise refused(
                "R5",
                "respondents",
                "the complainant and every respondent are different agents",
                code="dcp.duplicate_party",
                agents=agents,
            )
        ids = [e.evidence_id for e in self.evidence]
        if len(set(ids)) != len(ids):
            raise refused(
                "R5",
                "evidence",
                "each evidence item has its own evidence_id",
                code="dcp.duplicate_evidence",
            )
        outsiders = sorted({e.submitted_by for e in self.evidence} - set(agents))
        if outsiders:
            raise refused(
                "R5",
                "evidence.submitted_by",
                "evidence is submitted by a party to the dispute",
                code="dcp.evidence_from_outsider",
                agents=outsiders,
            )
        return self

    @property
    def parties(self) -> tuple[Party, ...]:
        """The complainant, then the respondents."""
        return (self.complainant, *self.respondents)
