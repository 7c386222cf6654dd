"""ML-DSA-65 over ``cryptography`` verifies the SDK's PQ signatures and rejects forgeries."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from accord.crypto import (
    ML_DSA_65,
    CryptoError,
    MlDsa65Signer,
    SignatureInvalid,
    derive_kid,
    domain_separated_message,
    verify_ml_dsa_65,
)


@pytest.fixture(scope="module")
def signer() -> MlDsa65Signer:
    return MlDsa65Signer.from_seed(bytes(range(32)))


def test_the_same_seed_gives_the_same_key(signer: MlDsa65Signer) -> None:
    again = MlDsa65Signer.from_seed(signer.seed)
    assert again.public_key == signer.public_key
    assert again.kid == signer.kid == derive_kid(ML_DSA_65, signer.public_key)
    assert signer.alg == "ml-dsa-65"
    assert len(signer.public_key) == 1952


def test_a_signature_verifies_and_a_changed_message_does_not(signer: MlDsa65Signer) -> None:
    signature = signer.sign(b"message")
    assert len(signature) == 3309
    verify_ml_dsa_65(signer.public_key, b"message", signature)
    with pytest.raises(SignatureInvalid) as caught:
        verify_ml_dsa_65(signer.public_key, b"messagE", signature)
    assert caught.value.context["kid"] == signer.kid


def test_a_generated_key_is_usable_and_distinct(signer: MlDsa65Signer) -> None:
    fresh = MlDsa65Signer.generate()
    assert fresh.public_key != signer.public_key
    verify_ml_dsa_65(fresh.public_key, b"m", fresh.sign(b"m"))
    assert MlDsa65Signer.from_seed(fresh.seed).public_key == fresh.public_key


def test_the_sdk_pq_signature_over_dsm_and_classical_signature_verifies(
    interop: dict[str, Any], interop_canonical: dict[str, bytes]
) -> None:
    case = interop["composite_signatures"]["intent_composite"]
    dsm = domain_separated_message(case["context"], interop_canonical[case["payload_key"]])
    classical = base64.b64decode(case["composite_sig"]["classical"]["sig_b64"])
    verify_ml_dsa_65(
        base64.b64decode(interop["test_keys"]["ml_dsa_65"]["public_key_b64"]),
        dsm + classical,
        base64.b64decode(case["composite_sig"]["pq"]["sig_b64"]),
    )


@pytest.mark.parametrize(("key_length", "sig_length"), [(1951, 3309), (1952, 3308), (0, 0)])
def test_malformed_key_or_signature_lengths_are_rejected_with_context(
    key_length: int, sig_length: int
) -> None:
    with pytest.raises(SignatureInvalid) as caught:
        verify_ml_dsa_65(bytes(key_length), b"m", bytes(sig_length))
    assert caught.value.context["public_key_length"] == key_length
    assert caught.value.context["signature_length"] == sig_length


@pytest.mark.parametrize("seed", [b"", bytes(31), bytes(64)])
def test_a_seed_that_is_not_32_bytes_is_refused(seed: bytes) -> None:
    with pytest.raises(CryptoError) as caught:
        MlDsa65Signer.from_seed(seed)
    assert caught.value.code == "crypto.bad_seed"


def test_the_repr_names_the_kid_and_never_the_seed(signer: MlDsa65Signer) -> None:
    assert signer.kid in repr(signer)
    assert signer.seed.hex() not in repr(signer)
