"""Inclusion and consistency proofs as self-contained documents, checkable offline."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from accord.crypto import RecordSignature, SignatureInvalid, canonical_bytes, verify_record
from accord.errors import ValidationError, VerificationFailed
from accord.ledger.checkpoint import Checkpoint
from accord.ledger.merkle import leaf_hash, root_from_inclusion_path, verify_consistency


class InclusionProof(BaseModel):
    """Entry ``leaf_index + 1`` is leaf ``leaf_index`` of the tree the checkpoint signs."""

    model_config = ConfigDict(frozen=True)

    entry: dict[str, Any]
    leaf_index: int
    tree_size: int
    audit_path: list[str]
    checkpoint: dict[str, Any]

    def verify(self, trusted_keys: Mapping[str, bytes]) -> Checkpoint:
        """Check everything with public keys only; returns the checkpoint on success."""
        checkpoint = Checkpoint.from_json_dict(self.checkpoint)
        checkpoint.verify_signature(trusted_keys)
        if checkpoint.tree_size != self.tree_size:
            raise VerificationFailed(
                "proof and checkpoint disagree on tree size",
                code="ledger.bad_proof",
                field="tree_size",
            )
        _verify_entry_signature(self.entry, trusted_keys)
        if self.entry.get("seq") != self.leaf_index + 1:
            raise VerificationFailed(
                "entry seq does not match the leaf index",
                code="ledger.bad_proof",
                field="leaf_index",
            )
        leaf = leaf_hash(hashlib.sha256(canonical_bytes(self.entry)).digest())
        try:
            root = root_from_inclusion_path(
                leaf, self.leaf_index, self.tree_size, [bytes.fromhex(p) for p in self.audit_path]
            )
        except (ValidationError, ValueError) as exc:
            raise VerificationFailed(
                f"malformed audit path: {exc}", code="ledger.bad_proof", field="audit_path"
            ) from exc
        if root != checkpoint.root_bytes():
            raise VerificationFailed(
                "audit path does not lead to the checkpoint root",
                code="ledger.bad_proof",
                field="audit_path",
            )
        return checkpoint


class ConsistencyProof(BaseModel):
    """The newer checkpoint's tree extends the older one's without rewriting it."""

    model_config = ConfigDict(frozen=True)

    old_checkpoint: dict[str, Any]
    new_checkpoint: dict[str, Any]
    path: list[str]

    def verify(self, trusted_keys: Mapping[str, bytes]) -> None:
        old = Checkpoint.from_json_dict(self.old_checkpoint)
        new = Checkpoint.from_json_dict(self.new_checkpoint)
        old.verify_signature(trusted_keys)
        new.verify_signature(trusted_keys)
        try:
            path = [bytes.fromhex(p) for p in self.path]
        except ValueError as exc:
            raise VerificationFailed(
                "malformed consistency path", code="ledger.bad_proof", field="path"
            ) from exc
        if not verify_consistency(
            old.tree_size, new.tree_size, old.root_bytes(), new.root_bytes(), path
        ):
            raise VerificationFailed(
                f"checkpoint at size {new.tree_size} is not an extension of the one at "
                f"size {old.tree_size}",
                code="ledger.inconsistent",
                field="path",
            )


def _verify_entry_signature(entry: Mapping[str, Any], trusted_keys: Mapping[str, bytes]) -> None:
    try:
        signature = RecordSignature.model_validate(entry["signature"])
    except (KeyError, ValueError) as exc:
        raise VerificationFailed(
            "entry has no valid signature object", code="ledger.bad_proof", field="entry.signature"
        ) from exc
    key = trusted_keys.get(signature.kid)
    if key is None:
        raise VerificationFailed(
            f"entry signed by unknown key {signature.kid}",
            code="ledger.unknown_key",
            field="entry.signature.kid",
        )
    try:
        verify_record(entry, signature, key)
    except SignatureInvalid as exc:
        raise VerificationFailed(
            "entry signature does not verify", code="ledger.bad_signature", field="entry.signature"
        ) from exc
