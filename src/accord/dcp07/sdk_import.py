"""Import records in the reference SDK's format back into Accord's DCP-07 records.

An SDK record says less than Accord's, so it is read against ``known``: the Accord record it
is a version of (the one Accord exported, or holds). The import checks the SDK's JSON shape
and its composite signature (over the bytes as received), then that every field the SDK
carries agrees with ``known``. What the SDK may advance (a dispute's status and level) is
taken from it: the result is ``known`` itself when nothing changed, else an unsigned draft
of the new version for the caller to chain and sign.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import ValidationError as PydanticValidationError

from accord.crypto import (
    DCP_DISPUTE_CONTEXT,
    canonical_bytes,
    composite_verify,
    sha256_hex,
)
from accord.crypto.hashing import SHA256_PREFIX
from accord.dcp07.dispute_record import DisputeRecord
from accord.dcp07.documents import record_canonical_bytes, record_document
from accord.dcp07.objection_record import ObjectionRecord
from accord.dcp07.refusal import from_pydantic, refused
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.sdk_format import (
    SdkArbitrationResolution,
    SdkDisputeRecord,
    SdkObjectionRecord,
    imported_status,
)
from accord.dcp07.vocabulary import ObjectionType, ResolutionType

SdkT = TypeVar("SdkT", SdkDisputeRecord, SdkArbitrationResolution, SdkObjectionRecord)
SdkInput = Mapping[str, Any] | str


def import_dispute(
    data: SdkInput,
    *,
    known: DisputeRecord,
    classical_public_key: bytes,
    pq_public_key: bytes | None,
    require_hybrid: bool = True,
) -> DisputeRecord:
    """The Accord dispute record ``data`` (an SDK dispute record) describes: ``known`` when the
    SDK's status and level are ``known``'s, else an unsigned draft carrying the SDK's status
    and level (whether that move is legal is the lifecycle's to decide when it applies it)."""
    sdk = _verified(
        SdkDisputeRecord, data, "R5", classical_public_key, pq_public_key, require_hybrid
    )
    respondent = known.respondents[0].agent_id if len(known.respondents) == 1 else None
    _agree("R5", "dispute_id", known.dispute_id, sdk.dispute_id)
    _agree("R5", "initiator_agent_id", known.complainant.agent_id, sdk.initiator_agent_id)
    _agree("R5", "respondent_agent_id", respondent, sdk.respondent_agent_id)
    _agree("R5", "dispute_type", known.dispute_type, sdk.dispute_type)
    hashes = sorted(_prefixed(h) for h in sdk.evidence_hashes)
    _agree("R5", "evidence_hashes", sorted(e.content_hash for e in known.evidence), hashes)
    status = imported_status(sdk.status, sdk.escalation_level)
    if (status, sdk.escalation_level) == (known.status, known.current_escalation_level):
        return known
    return DisputeRecord.model_validate(
        {
            **record_document(known),
            "status": status.value,
            "current_escalation_level": sdk.escalation_level.value,
            "signature": None,
        }
    )


def import_resolution(
    data: SdkInput,
    *,
    known: ResolutionRecord,
    classical_public_key: bytes,
    pq_public_key: bytes | None,
    require_hybrid: bool = True,
) -> ResolutionRecord:
    """``known`` once ``data`` (an SDK arbitration resolution) verifies and agrees with it."""
    sdk = _verified(
        SdkArbitrationResolution, data, "R19", classical_public_key, pq_public_key, require_hybrid
    )
    if known.panel is not None:
        arbitrators = [member.agent_id for member in known.panel.members]
    else:
        arbitrators = [signature.agent_id for signature in known.signatures]
    _agree("R19", "dispute_id", known.dispute_id, sdk.dispute_id)
    _agree("R19", "arbitrator_ids", arbitrators, list(sdk.arbitrator_ids))
    _agree("R19", "resolution", known.outcome.description, sdk.resolution)
    binding = known.resolution_type is ResolutionType.BINDING_RESOLUTION
    _agree("R19", "binding", binding, sdk.binding)
    precedents = [p.jurisprudence_id for p in known.precedents_applied]
    _agree("R19", "precedent_references", precedents, list(sdk.precedent_references))
    _agree("R19", "timestamp", known.timestamp, sdk.timestamp)
    return known


def import_objection(
    data: SdkInput,
    *,
    known: ObjectionRecord,
    resolution: ResolutionRecord,
    classical_public_key: bytes,
    pq_public_key: bytes | None,
    require_hybrid: bool = True,
) -> ObjectionRecord:
    """``known`` once ``data`` (an SDK objection to ``resolution``) verifies and agrees."""
    sdk = _verified(
        SdkObjectionRecord, data, "R27", classical_public_key, pq_public_key, require_hybrid
    )
    _agree("R27", "objection_id", known.objection_id, sdk.objection_id)
    _agree("R27", "agent_id", known.objecting_party.agent_id, sdk.agent_id)
    _agree("R27", "resolution_id", known.resolution_id, resolution.resolution_id)
    _agree(
        "R27", "directive_hash", sha256_hex(record_canonical_bytes(resolution)), sdk.directive_hash
    )
    _agree("R27", "reasoning", known.grounds.detailed_reasoning, sdk.reasoning)
    _agree(
        "R27", "proposed_alternative", known.requested_remedy.description, sdk.proposed_alternative
    )
    rights = known.objection_type is ObjectionType.RIGHTS
    _agree("R29", "human_escalation_required", rights, sdk.human_escalation_required)
    _agree("R27", "timestamp", known.timestamp, sdk.timestamp)
    return known


def _verified(
    model: type[SdkT],
    data: SdkInput,
    requirement: str,
    classical_public_key: bytes,
    pq_public_key: bytes | None,
    require_hybrid: bool,
) -> SdkT:
    """The SDK record in ``data`` once its shape and composite signature check out."""
    try:
        document: Any = json.loads(data) if isinstance(data, str) else data
        sdk = model.model_validate(document)
    except ValueError as exc:
        if isinstance(exc, PydanticValidationError):
            raise from_pydantic(exc, requirement=requirement, record=model.__name__) from None
        raise refused(
            requirement, "$", f"an SDK record is one JSON object ({exc})", code="dcp.sdk_invalid"
        ) from None
    unsigned = {key: value for key, value in document.items() if key != "composite_sig"}
    composite_verify(
        DCP_DISPUTE_CONTEXT,
        canonical_bytes(unsigned),
        sdk.composite_sig,
        classical_public_key,
        pq_public_key,
        require_hybrid=require_hybrid,
    )
    return sdk


def _prefixed(evidence_hash: str) -> str:
    bare = evidence_hash.removeprefix(SHA256_PREFIX)
    if len(bare) != 64 or any(c not in "0123456789abcdef" for c in bare):
        raise refused(
            "R33",
            "evidence_hashes",
            "evidence hashes are SHA-256: 64 lower-case hex, optionally prefixed sha256:",
            code="dcp.sdk_evidence_hash",
            found=evidence_hash,
        )
    return SHA256_PREFIX + bare


def _agree(requirement: str, field: str, expected: object, found: object) -> None:
    if expected != found:
        raise refused(
            requirement,
            field,
            "the SDK record agrees with the Accord record it is a version of",
            code="dcp.sdk_import_mismatch",
            expected=_plain(expected),
            found=_plain(found),
        )


def _plain(value: object) -> object:
    return value if isinstance(value, str | bool | list | type(None)) else str(value)
