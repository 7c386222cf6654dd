"""A party's own signature on the position it submits to a collecting case.

The agent signs, with its registered agent key (``accord keys new --role agent --principal
<agent-id>`` registers one in the ledger), the record :func:`position_to_sign` builds:
``{"record_type": "collected_position", "collecting_id", "position"}`` where ``position`` is
the position exactly as the settled case's opening record will sign it
(``records.parts.position_record``: ``agent_id``, ``answer`` with fractions as
``{"$decimal": …}``, ``confidence_bp``, evidence content hashes, ``sources``,
``assumptions``), under ``DCP-DISPUTE-SIG-v2`` (dcp-jcs-v1 canonical bytes). The service
verifies it against the key the ledger registered for that agent before storing the position,
so the stored position is one the agent itself vouched for, not only one its API key sent.
"""

from __future__ import annotations

from typing import Any

from accord.cases.records.parts import position_record
from accord.conflicts import Position
from accord.crypto import Ed25519Signer
from accord.crypto.record_signature import RecordSignature, sign_record, verify_record
from accord.errors import AccordError
from accord.ledger import KeyRegistry
from accord.ledger.trust import NO_END

RECORD_TYPE = "collected_position"


class UnknownPositionSigner(AccordError):
    """The signature's kid is not the submitting agent's registered, unrevoked agent key."""

    code = "collecting.unknown_signer"


def position_to_sign(collecting_id: str, position: Position) -> dict[str, Any]:
    """The record a party signs for ``position`` in ``collecting_id`` (the one builder)."""
    return {
        "record_type": RECORD_TYPE,
        "collecting_id": collecting_id,
        "position": dict(position_record(position)),
    }


def sign_position(collecting_id: str, position: Position, signer: Ed25519Signer) -> RecordSignature:
    """The agent's signature on its own position (made where the agent's key lives)."""
    return sign_record(position_to_sign(collecting_id, position), signer)


def verify_position_signature(
    registry: KeyRegistry, collecting_id: str, position: Position, signature: RecordSignature
) -> None:
    """Return if ``signature`` is the position's agent's, by its registered agent key;
    ``UnknownPositionSigner`` (403) or ``SignatureInvalid`` (422) naming the rule else."""
    key = registry.key(signature.kid)
    if (
        key is None
        or key.role != "agent"
        or not key.valid_at(NO_END)
        or key.principal != position.agent
    ):
        raise UnknownPositionSigner(
            f"key {signature.kid} is not {position.agent}'s registered, unrevoked agent key",
            kid=signature.kid,
            field="party_signature.kid",
            rule="a position is signed by its own agent's registered agent key",
        )
    try:
        verify_record(position_to_sign(collecting_id, position), signature, key.public_key)
    except AccordError as exc:
        exc.context = {
            **exc.context,
            "field": f"party_signature.{exc.context.get('field', 'sig_b64')}",
        }
        raise
