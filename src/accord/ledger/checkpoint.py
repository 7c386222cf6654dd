"""Signed tree heads: (tree size, Merkle root, time), verifiable offline with a public key."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from accord.crypto import (
    DISPUTE_SIG_TAG,
    ED25519,
    Ed25519Signer,
    RecordSignature,
    SignatureInvalid,
    canonical_bytes,
    domain_separated_message,
    verify_ed25519,
)
from accord.errors import VerificationFailed

CHECKPOINT_RECORD_TYPE = "ledger_checkpoint"


class Checkpoint(BaseModel):
    """A signed statement that the ledger's first ``tree_size`` entries have ``root_hash``."""

    model_config = ConfigDict(frozen=True)

    tree_size: int
    root_hash: str
    timestamp: str
    signer_kid: str
    signature: RecordSignature

    def body(self) -> dict[str, Any]:
        return {
            "record_type": CHECKPOINT_RECORD_TYPE,
            "root_hash": self.root_hash,
            "signer_kid": self.signer_kid,
            "timestamp": self.timestamp,
            "tree_size": self.tree_size,
        }

    def root_bytes(self) -> bytes:
        return bytes.fromhex(self.root_hash.removeprefix("sha256:"))

    def to_json_dict(self) -> dict[str, Any]:
        data = self.body()
        data["signature"] = self.signature.model_dump()
        return data

    @classmethod
    def from_json_dict(cls, data: Mapping[str, Any]) -> Checkpoint:
        """Parse a checkpoint handed over by a third party (validated)."""
        if data.get("record_type") != CHECKPOINT_RECORD_TYPE:
            raise VerificationFailed(
                "not a ledger checkpoint (record_type)", code="ledger.bad_checkpoint"
            )
        fields = {k: v for k, v in data.items() if k != "record_type"}
        return cls.model_validate(fields)

    def verify_signature(self, trusted_keys: Mapping[str, bytes]) -> None:
        """Raise VerificationFailed unless a trusted key signed exactly this checkpoint."""
        key = trusted_keys.get(self.signer_kid)
        if key is None:
            raise VerificationFailed(
                f"checkpoint at size {self.tree_size} is signed by {self.signer_kid}, which is "
                "not a trusted service key at that size",
                code="ledger.untrusted_signer",
                tree_size=self.tree_size,
                field="signer_kid",
            )
        sig = self.signature
        if sig.kid != self.signer_kid or sig.alg != ED25519 or sig.domain_sep != DISPUTE_SIG_TAG:
            raise VerificationFailed(
                f"checkpoint at size {self.tree_size} has a mismatched signature header",
                code="ledger.bad_checkpoint",
                tree_size=self.tree_size,
                field="signature",
            )
        message = domain_separated_message(DISPUTE_SIG_TAG, canonical_bytes(self.body()))
        try:
            verify_ed25519(key, message, base64.b64decode(sig.sig_b64, validate=True))
        except (SignatureInvalid, ValueError) as exc:
            raise VerificationFailed(
                f"checkpoint at size {self.tree_size}: signature does not verify",
                code="ledger.bad_signature",
                tree_size=self.tree_size,
                field="signature",
            ) from exc


def sign_checkpoint(
    tree_size: int, root: bytes, timestamp: str, signer: Ed25519Signer
) -> tuple[Checkpoint, bytes, bytes]:
    """Sign a tree head; returns the checkpoint, its canonical body and the raw signature."""
    body = {
        "record_type": CHECKPOINT_RECORD_TYPE,
        "root_hash": "sha256:" + root.hex(),
        "signer_kid": signer.kid,
        "timestamp": timestamp,
        "tree_size": tree_size,
    }
    body_bytes = canonical_bytes(body)
    sig = signer.sign(domain_separated_message(DISPUTE_SIG_TAG, body_bytes))
    checkpoint = Checkpoint(
        tree_size=tree_size,
        root_hash=str(body["root_hash"]),
        timestamp=timestamp,
        signer_kid=signer.kid,
        signature=RecordSignature(
            alg=ED25519,
            kid=signer.kid,
            sig_b64=base64.b64encode(sig).decode("ascii"),
            domain_sep=DISPUTE_SIG_TAG,
        ),
    )
    return checkpoint, body_bytes, sig


def checkpoint_from_row(body: bytes, signature: bytes) -> Checkpoint:
    """Rebuild a stored checkpoint (its signature is checked by ``verify``)."""
    data = json.loads(body)
    return Checkpoint(
        tree_size=data["tree_size"],
        root_hash=data["root_hash"],
        timestamp=data["timestamp"],
        signer_kid=data["signer_kid"],
        signature=RecordSignature(
            alg=ED25519,
            kid=data["signer_kid"],
            sig_b64=base64.b64encode(signature).decode("ascii"),
            domain_sep=DISPUTE_SIG_TAG,
        ),
    )
