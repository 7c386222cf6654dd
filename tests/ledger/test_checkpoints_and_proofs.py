"""Signed checkpoints, and inclusion/consistency proofs a third party checks with a public key."""

from __future__ import annotations

import json

import pytest

from accord.crypto import Ed25519Signer
from accord.errors import NotFound, ValidationError, VerificationFailed
from accord.ledger import ConsistencyProof, InclusionProof, Ledger

from .conftest import case_events


@pytest.fixture
def trusted(signer: Ed25519Signer) -> dict[str, bytes]:
    """Offline proofs are checked against a kid → public key map."""
    return {signer.kid: signer.public_key}


def test_a_checkpoint_is_written_every_n_entries_in_the_append_transaction(ledger: Ledger) -> None:
    ledger.append_many(case_events(9))
    assert [c.tree_size for c in ledger.checkpoints()] == [4, 8]
    ledger.append_many(case_events(3))
    assert [c.tree_size for c in ledger.checkpoints()] == [4, 8, 12]


def test_a_checkpoint_root_is_the_merkle_root_of_its_entries(ledger: Ledger) -> None:
    ledger.append_many(case_events(7))
    checkpoint = ledger.checkpoint()
    assert checkpoint.tree_size == 7
    assert checkpoint.root_bytes() == ledger.root_at(7)
    assert ledger.checkpoint() == checkpoint  # nothing new: the same checkpoint comes back
    assert ledger.latest_checkpoint() == checkpoint


def test_an_empty_ledger_cannot_be_checkpointed(ledger: Ledger) -> None:
    with pytest.raises(ValidationError):
        ledger.checkpoint()


def test_an_inclusion_proof_verifies_offline_from_its_json(
    ledger: Ledger, trusted: dict[str, bytes]
) -> None:
    ledger.append_many(case_events(11))
    for seq in (1, 6, 11):
        proof = ledger.inclusion_proof(seq)
        transported = InclusionProof.model_validate(json.loads(proof.model_dump_json()))
        checkpoint = transported.verify(trusted)
        assert checkpoint.tree_size == 11


def test_a_forged_inclusion_proof_is_rejected(ledger: Ledger, trusted: dict[str, bytes]) -> None:
    ledger.append_many(case_events(6))
    proof = ledger.inclusion_proof(3)
    forged_entry = dict(proof.entry, record={"case_id": "forged"})
    with pytest.raises(VerificationFailed):
        proof.model_copy(update={"entry": forged_entry}).verify(trusted)
    with pytest.raises(VerificationFailed):
        proof.model_copy(update={"audit_path": proof.audit_path[:-1]}).verify(trusted)
    with pytest.raises(VerificationFailed):
        proof.model_copy(update={"leaf_index": 3}).verify(trusted)
    with pytest.raises(VerificationFailed):
        proof.model_copy(update={"tree_size": 5}).verify(trusted)
    stranger = Ed25519Signer.from_seed(b"\x07" * 32)
    with pytest.raises(VerificationFailed):
        proof.verify({stranger.kid: stranger.public_key})


def test_a_consistency_proof_shows_the_ledger_only_grew(
    ledger: Ledger, trusted: dict[str, bytes]
) -> None:
    ledger.append_many(case_events(5))
    old = ledger.checkpoint()
    ledger.append_many(case_events(6))
    new = ledger.checkpoint()
    proof = ledger.consistency_proof(old.tree_size, new.tree_size)
    ConsistencyProof.model_validate(json.loads(proof.model_dump_json())).verify(trusted)
    ledger.consistency_proof(4).verify(trusted)  # newest checkpoint by default


def test_a_consistency_proof_with_a_bad_path_is_rejected(
    ledger: Ledger, trusted: dict[str, bytes]
) -> None:
    ledger.append_many(case_events(9))
    proof = ledger.consistency_proof(4, 8)
    with pytest.raises(VerificationFailed):
        proof.model_copy(update={"path": ["00" * 32]}).verify(trusted)
    with pytest.raises(VerificationFailed):
        proof.model_copy(update={"path": ["zz"]}).verify(trusted)


def test_proofs_for_unknown_checkpoints_are_not_found(ledger: Ledger) -> None:
    with pytest.raises(NotFound):
        ledger.consistency_proof(1)
    ledger.append_many(case_events(4))
    with pytest.raises(NotFound):
        ledger.consistency_proof(3, 4)
