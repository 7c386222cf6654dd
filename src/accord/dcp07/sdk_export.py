"""Export Accord's DCP-07 records to the reference SDK's smaller format, signed as it signs.

The SDK record is signed with a composite Ed25519 + ML-DSA-65 signature (``classical_only``
without a PQ signer) under context ``DCP-AI.v2.Dispute``, over the canonical bytes of the
record without ``composite_sig``. What the SDK format cannot say is refused, naming the
field and the requirement of the Accord record's shape (two respondents, a withdrawn
dispute, a split decision); what it merely leaves out is listed in docs/disputes.md's table.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from pydantic import ValidationError as PydanticValidationError

from accord.crypto import (
    DCP_DISPUTE_CONTEXT,
    Ed25519Signer,
    MlDsa65Signer,
    canonical_bytes,
    composite_sign,
    sha256_hex,
)
from accord.crypto.hashing import SHA256_PREFIX
from accord.dcp07.dispute_record import DisputeRecord
from accord.dcp07.documents import record_canonical_bytes
from accord.dcp07.objection_record import ObjectionRecord
from accord.dcp07.refusal import from_pydantic, refused
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.sdk_format import (
    EXPORTED_AUTHORITY,
    EXPORTED_STATUS,
    SdkArbitrationResolution,
    SdkDisputeRecord,
    SdkJurisprudenceBundle,
    SdkObjectionRecord,
    SdkObjectionType,
    SdkRecord,
)
from accord.dcp07.vocabulary import CaseStatus, ObjectionType, ResolutionType, Tier
from accord.errors import ValidationError
from accord.precedents import JurisprudenceBundle

SdkT = TypeVar(
    "SdkT",
    SdkDisputeRecord,
    SdkArbitrationResolution,
    SdkObjectionRecord,
    SdkJurisprudenceBundle,
)


def export_dispute(
    record: DisputeRecord,
    *,
    session_nonce: str,
    classical: Ed25519Signer,
    pq: MlDsa65Signer | None,
) -> SdkDisputeRecord:
    """``record`` as an SDK dispute record, signed by ``classical`` (+ ``pq``)."""
    if len(record.respondents) != 1:
        raise _lossy("R5", "respondents", "the SDK format has exactly one respondent")
    status = EXPORTED_STATUS.get(record.status)
    if status is None:
        raise _lossy("R6", "status", f"the SDK format has no status {record.status.value!r}")
    tier_one = record.current_escalation_level is Tier.DIRECT_NEGOTIATION
    if (record.status is CaseStatus.NEGOTIATING) != (status == "in_negotiation" and tier_one):
        raise _lossy(
            "R6",
            "status",
            "the SDK writes negotiating and escalated both as in_negotiation, told apart by "
            "the level: negotiating only at direct_negotiation, escalated only above it",
        )
    payload: dict[str, Any] = {
        "dcp_version": "2.0",
        "dispute_id": record.dispute_id,
        "session_nonce": session_nonce,
        "initiator_agent_id": record.complainant.agent_id,
        "respondent_agent_id": record.respondents[0].agent_id,
        "dispute_type": record.dispute_type.value,
        "evidence_hashes": [e.content_hash.removeprefix(SHA256_PREFIX) for e in record.evidence],
        "escalation_level": record.current_escalation_level.value,
        "status": status,
        "timestamp": max(
            (e.timestamp for e in record.timeline), key=_instant, default=record.opened_at
        ),
    }
    return _signed(SdkDisputeRecord, payload, "R5", classical, pq)


def export_resolution(
    record: ResolutionRecord,
    *,
    session_nonce: str,
    classical: Ed25519Signer,
    pq: MlDsa65Signer | None,
) -> SdkArbitrationResolution:
    """``record`` as an SDK arbitration resolution: the panel's members (else the signers) as
    ``arbitrator_ids``, the outcome's description as ``resolution``."""
    if record.resolution_type is ResolutionType.SPLIT_DECISION:
        raise _lossy(
            "R15",
            "resolution_type",
            "the SDK format has no split decision (it would read as a non-binding resolution)",
        )
    if record.panel is not None:
        arbitrators = [member.agent_id for member in record.panel.members]
    else:
        arbitrators = [signature.agent_id for signature in record.signatures]
    if not arbitrators:
        raise _lossy("R19", "signatures", "the SDK format names at least one arbitrator")
    payload: dict[str, Any] = {
        "dcp_version": "2.0",
        "dispute_id": record.dispute_id,
        "session_nonce": session_nonce,
        "arbitrator_ids": arbitrators,
        "resolution": record.outcome.description,
        "binding": record.resolution_type is ResolutionType.BINDING_RESOLUTION,
        "precedent_references": [p.jurisprudence_id for p in record.precedents_applied],
        "timestamp": record.timestamp,
    }
    return _signed(SdkArbitrationResolution, payload, "R19", classical, pq)


def export_objection(
    record: ObjectionRecord,
    *,
    resolution: ResolutionRecord,
    objection_type: SdkObjectionType,
    session_nonce: str,
    classical: Ed25519Signer,
    pq: MlDsa65Signer | None,
) -> SdkObjectionRecord:
    """``record`` as an SDK objection to the "directive" ``resolution`` (``directive_hash`` is
    the hex SHA-256 of its canonical bytes). The SDK's four objection types share nothing
    with §8.3's, so the caller names one; ``rights`` sets ``human_escalation_required`` (R29)."""
    if resolution.resolution_id != record.resolution_id:
        raise _lossy(
            "R27",
            "resolution_id",
            "the objection is exported with the resolution it objects to",
            expected=record.resolution_id,
            found=resolution.resolution_id,
        )
    payload: dict[str, Any] = {
        "dcp_version": "2.0",
        "objection_id": record.objection_id,
        "session_nonce": session_nonce,
        "agent_id": record.objecting_party.agent_id,
        "directive_hash": sha256_hex(record_canonical_bytes(resolution)),
        "objection_type": objection_type,
        "reasoning": record.grounds.detailed_reasoning,
        "proposed_alternative": record.requested_remedy.description,
        "human_escalation_required": record.objection_type is ObjectionType.RIGHTS,
        "timestamp": record.timestamp,
    }
    return _signed(SdkObjectionRecord, payload, "R27", classical, pq)


def export_bundle(
    bundle: JurisprudenceBundle,
    *,
    session_nonce: str,
    classical: Ed25519Signer,
    pq: MlDsa65Signer | None,
) -> SdkJurisprudenceBundle:
    """``bundle`` as an SDK jurisprudence bundle: the dispute type as ``category``, the
    holding as ``precedent_summary``, the applicable conditions as ``applicable_contexts``
    and the tier as an SDK authority level in the same order (``EXPORTED_AUTHORITY``). What
    the SDK has no field for (facts, rationale, dissent, inapplicable conditions,
    supersession, objections) is left out; docs/disputes.md lists it."""
    payload: dict[str, Any] = {
        "dcp_version": "2.0",
        "jurisprudence_id": bundle.jurisprudence_id,
        "session_nonce": session_nonce,
        "dispute_id": bundle.dispute_id,
        "resolution_id": bundle.resolution_id,
        "category": bundle.classification.dispute_type.value,
        "precedent_summary": bundle.summary.holding,
        "applicable_contexts": list(bundle.applicability.applicable_conditions),
        "authority_level": EXPORTED_AUTHORITY[bundle.authority_level],
        "timestamp": bundle.timestamp,
    }
    return _signed(SdkJurisprudenceBundle, payload, "R23", classical, pq)


def _instant(timestamp: str) -> datetime:
    """Timestamps compare as instants: ``10:05:00Z`` is before ``10:05:00.5Z``, though the text
    sorts after it."""
    return datetime.fromisoformat(timestamp.replace("Z", "+00:00"))


def sdk_document(record: SdkRecord) -> dict[str, Any]:
    """The SDK record as JSON values, ready to write or hand to the SDK."""
    return record.model_dump(mode="json")


def _signed(
    model: type[SdkT],
    payload: dict[str, Any],
    requirement: str,
    classical: Ed25519Signer,
    pq: MlDsa65Signer | None,
) -> SdkT:
    try:
        model.model_validate({**payload, "composite_sig": _PLACEHOLDER})
    except PydanticValidationError as exc:
        raise from_pydantic(exc, requirement=requirement, record=model.__name__) from None
    signature = composite_sign(DCP_DISPUTE_CONTEXT, canonical_bytes(payload), classical, pq)
    return model.model_validate({**payload, "composite_sig": signature.model_dump()})


_PLACEHOLDER = {
    "classical": {"alg": "ed25519", "kid": "0" * 32, "sig_b64": "AAAAAAAAAAA="},
    "pq": None,
    "binding": "classical_only",
}
"""A well-formed signature, so the payload's shape is checked before anything is signed."""


def _lossy(requirement: str, field: str, rule: str, **context: object) -> ValidationError:
    return refused(requirement, field, rule, code="dcp.sdk_export_lossy", **context)
