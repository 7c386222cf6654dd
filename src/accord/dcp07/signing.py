"""Signing DCP-07 records and verifying their signatures (R36, R44).

Every signature is Ed25519 over ``UTF8("DCP-DISPUTE-SIG-v2") || 0x00 || canonical(record
without signature/signatures)``, made by :func:`accord.crypto.sign_record`. Dispute and
objection records carry one ``signature``; a resolution carries ``signatures[]``, one per
signing arbitrator (or principal, at human appeal), each over the same bytes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, TypeVar

from accord.crypto import Ed25519Signer, RecordSignature, Signer, sign_record, verify_record
from accord.dcp07.dispute_record import DisputeRecord
from accord.dcp07.documents import record_document
from accord.dcp07.objection_record import ObjectionRecord
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.signature_fields import DisputeSignature
from accord.dcp07.vocabulary import Vote
from accord.errors import SignatureInvalid
from accord.values import revised

SingleSigned = TypeVar("SingleSigned", DisputeRecord, ObjectionRecord)


def signed(record: SingleSigned, signer: Ed25519Signer) -> SingleSigned:
    """A signed copy of the unsigned dispute or objection ``record``."""
    if record.signature is not None:
        raise _rejected(record_id(record), "signature", "the record is already signed")
    signature = sign_record(record_document(record), signer)
    # The record was validated when built; only the new signature block needs checking.
    checked = DisputeSignature.model_validate(signature.model_dump())
    return revised(record, signature=checked)


def cosigned(record: ResolutionRecord, agent_id: str, signer: Signer) -> ResolutionRecord:
    """``record`` with ``agent_id``'s signature appended to ``signatures[]``."""
    document = record_document(record)
    signature = sign_record(document, signer)
    entry = {"agent_id": agent_id, **signature.model_dump()}
    return ResolutionRecord.model_validate(
        {**document, "signatures": [*document["signatures"], entry]}
    )


def verify_signed(record: SingleSigned, public_key: bytes) -> SingleSigned:
    """``record`` once its signature verifies under ``public_key``; else ``SignatureInvalid``
    naming the record and what failed."""
    if record.signature is None:
        raise _rejected(record_id(record), "signature", "the record is unsigned")
    _verify(record_document(record), record.signature, public_key, record_id(record), None)
    return record


def verify_resolution(
    record: ResolutionRecord,
    public_keys: Mapping[str, bytes],
    *,
    required_signers: Collection[str] = (),
) -> ResolutionRecord:
    """``record`` once every signature verifies under its signer's key in ``public_keys``
    (agent or principal id → Ed25519 public key), everyone in ``required_signers`` has signed
    (every party of a negotiated agreement; every party's principal at human appeal), and — for
    a panel's agreed decision — at least M approving members have signed; else
    ``SignatureInvalid`` naming what failed."""
    if not record.signatures:
        raise _rejected(record.resolution_id, "signatures", "a resolution is signed")
    missing = sorted(set(required_signers) - {s.agent_id for s in record.signatures})
    if missing:
        raise _rejected(
            record.resolution_id,
            "signatures",
            "every required signer has signed",
            missing=missing,
        )
    document = record_document(record)
    for signature in record.signatures:
        key = public_keys.get(signature.agent_id)
        if key is None:
            raise _rejected(
                record.resolution_id,
                "signatures.agent_id",
                "every signer's public key is known",
                signer=signature.agent_id,
            )
        _verify(document, signature, key, record.resolution_id, signature.agent_id)
    panel = record.panel
    if panel is not None and panel.agreed:
        approving = {m.agent_id for m in panel.members if m.vote is Vote.APPROVE}
        signed_by = approving & {s.agent_id for s in record.signatures}
        if len(signed_by) < panel.threshold.m:
            raise _rejected(
                record.resolution_id,
                "signatures",
                "an M-of-N decision carries the signatures of at least M approving members",
                m=panel.threshold.m,
                signed=len(signed_by),
            )
    return record


def record_id(record: DisputeRecord | ResolutionRecord | ObjectionRecord) -> str:
    """The record's own id (``disp:``, ``res:`` or ``obj:``)."""
    if isinstance(record, DisputeRecord):
        return record.dispute_id
    if isinstance(record, ResolutionRecord):
        return record.resolution_id
    return record.objection_id


def _verify(
    document: Mapping[str, object],
    signature: RecordSignature,
    public_key: bytes,
    record: str,
    signer: str | None,
) -> None:
    try:
        verify_record(document, signature, public_key)
    except SignatureInvalid as exc:
        context = {k: v for k, v in exc.context.items() if k not in {"field", "rule"}}
        raise _rejected(
            record,
            str(exc.context.get("field", "sig_b64")),
            str(exc.context.get("rule", exc.message)),
            signer=signer,
            **context,
        ) from None


def _rejected(record: str, field: str, rule: str, **context: Any) -> SignatureInvalid:
    requirement = "R36" if field == "domain_sep" else "R44"
    return SignatureInvalid(
        f"{record}: signature rejected: {rule} ({requirement})",
        record=record,
        field=field,
        rule=rule,
        requirement=requirement,
        **context,
    )
