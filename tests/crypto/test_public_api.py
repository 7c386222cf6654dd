"""The crypto room's public names are all importable from ``accord.crypto``."""

from __future__ import annotations

import accord.crypto

CONTRACT = {
    "canonical_bytes",
    "canonical_from_json_text",
    "GENESIS",
    "sha256_hex",
    "sha256_prefixed",
    "sha3_256_prefixed",
    "dual_hash",
    "content_hash",
    "DISPUTE_SIG_TAG",
    "DCP_DISPUTE_CONTEXT",
    "domain_separated_message",
    "derive_kid",
    "ED25519",
    "ML_DSA_65",
    "Ed25519Signer",
    "verify_ed25519",
    "RecordSignature",
    "SIGNATURE_FIELDS",
    "signing_payload",
    "sign_record",
    "verify_record",
    "MlDsa65Signer",
    "verify_ml_dsa_65",
    "SignatureEntry",
    "CompositeSignature",
    "composite_sign",
    "composite_verify",
    "Keyring",
    "KeyInfo",
    "load_public_keys",
}


def test_every_name_of_the_contract_is_exported() -> None:
    assert set(accord.crypto.__all__) >= CONTRACT


def test_every_exported_name_exists() -> None:
    for name in accord.crypto.__all__:
        assert hasattr(accord.crypto, name), name


def test_the_export_list_has_no_duplicates() -> None:
    assert len(set(accord.crypto.__all__)) == len(accord.crypto.__all__)
