"""Accord's crypto room: canonical bytes, hashes, key ids, signatures and the keyring.

Every signature and hash Accord produces is taken over :func:`canonical_bytes` (profile
``dcp-jcs-v1``), domain separated by a tag, and made with Ed25519 (optionally bound to
ML-DSA-65 in the DCP composite form). The errors this room raises are re-exported for
convenience; they live in :mod:`accord.errors`.
"""

from accord.crypto.canonical import canonical_bytes, canonical_from_json_text
from accord.crypto.composite import (
    CompositeSignature,
    SignatureEntry,
    composite_sign,
    composite_verify,
)
from accord.crypto.domain import DCP_DISPUTE_CONTEXT, DISPUTE_SIG_TAG, domain_separated_message
from accord.crypto.ed25519 import Ed25519Signer, parse_public_key, verify_ed25519
from accord.crypto.encoding import b64decode
from accord.crypto.hashing import (
    GENESIS,
    content_hash,
    dual_hash,
    sha3_256_hex,
    sha3_256_prefixed,
    sha256_hex,
    sha256_prefixed,
)
from accord.crypto.key_files import (
    private_path,
    public_path,
    read_public_key_file,
    validate_key_name,
)
from accord.crypto.keyring import (
    KeyInfo,
    Keyring,
    load_public_keys,
    role_key_name,
    signer_from_file,
)
from accord.crypto.kid import ED25519, ML_DSA_65, derive_kid
from accord.crypto.ml_dsa import MlDsa65Signer, verify_ml_dsa_65
from accord.crypto.record_signature import (
    SIGNATURE_FIELDS,
    RecordSignature,
    sign_record,
    signing_payload,
    verify_record,
)
from accord.crypto.signer import Signer
from accord.errors import CanonicalizationError, CryptoError, KeyNotFound, SignatureInvalid

__all__ = [
    "DCP_DISPUTE_CONTEXT",
    "DISPUTE_SIG_TAG",
    "ED25519",
    "GENESIS",
    "ML_DSA_65",
    "SIGNATURE_FIELDS",
    "CanonicalizationError",
    "CompositeSignature",
    "CryptoError",
    "Ed25519Signer",
    "KeyInfo",
    "KeyNotFound",
    "Keyring",
    "MlDsa65Signer",
    "RecordSignature",
    "SignatureEntry",
    "SignatureInvalid",
    "Signer",
    "b64decode",
    "canonical_bytes",
    "canonical_from_json_text",
    "composite_sign",
    "composite_verify",
    "content_hash",
    "derive_kid",
    "domain_separated_message",
    "dual_hash",
    "load_public_keys",
    "parse_public_key",
    "private_path",
    "public_path",
    "read_public_key_file",
    "role_key_name",
    "sha3_256_hex",
    "sha3_256_prefixed",
    "sha256_hex",
    "sha256_prefixed",
    "sign_record",
    "signer_from_file",
    "signing_payload",
    "validate_key_name",
    "verify_ed25519",
    "verify_ml_dsa_65",
    "verify_record",
]
