"""What an agent runs where its private key lives: check each payload it was shown, then sign.

The service could show any bytes; the agent signs a payload only when its digest is the one
named, it is made under ``DCP-DISPUTE-SIG-v2`` (R36) and its record is about the prepared
dispute — so the signatures it hands back can serve no other purpose.
"""

from __future__ import annotations

import json

from accord.crypto import DISPUTE_SIG_TAG, Signer, sha256_prefixed
from accord.crypto.encoding import b64decode, b64encode
from accord.disputes.dcp.refusal import refused
from accord.disputes.tiers.prepared.models import PayloadSignature, PreparedStep
from accord.errors import ValidationError


def sign_payloads(prepared: PreparedStep, signer: Signer) -> list[PayloadSignature]:
    """``signer``'s signature of each payload ``prepared`` awaits, after checking it (a
    ``ValidationError`` naming the payload and the rule otherwise)."""
    if signer.kid != prepared.kid:
        raise _refused("kid", f"the step is to be signed with key {prepared.kid}, not {signer.kid}")
    out = []
    for payload in prepared.payloads:
        where = f"payloads[{payload.index}]"
        try:
            message = b64decode(payload.payload_b64)
        except ValueError:
            raise _refused(f"{where}.payload_b64", "standard base64") from None
        if sha256_prefixed(message) != payload.sha256:
            raise _refused(f"{where}.sha256", "the sha256 of the payload's bytes")
        tag, zero, body = message.partition(b"\x00")
        if tag != DISPUTE_SIG_TAG.encode() or not zero:
            raise _refused(where, f"bytes signed under {DISPUTE_SIG_TAG} (R36)")
        try:
            record = json.loads(body)
        except ValueError:
            raise _refused(where, "a JSON record after the domain tag") from None
        if not isinstance(record, dict) or record.get("dispute_id") != prepared.dispute_id:
            raise _refused(where, f"a record of dispute {prepared.dispute_id}")
        out.append(
            PayloadSignature(sha256=payload.sha256, signature_b64=b64encode(signer.sign(message)))
        )
    return out


def _refused(field: str, rule: str) -> ValidationError:
    return refused("R36", field, rule, code="disputes.prepared_payload_refused")
