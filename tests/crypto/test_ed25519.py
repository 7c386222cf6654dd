"""Ed25519 over libsodium reproduces RFC 8032 and the SDK's signatures, and rejects forgeries."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from accord.crypto import (
    ED25519,
    CryptoError,
    Ed25519Signer,
    SignatureInvalid,
    derive_kid,
    domain_separated_message,
    verify_ed25519,
)

RFC8032_CASES = ["rfc8032_test1", "rfc8032_test2", "rfc8032_test3"]
INTEROP_CASES = ["passport_ed25519", "intent_ed25519", "audit_ed25519"]


def _rfc(rfc8032: list[dict[str, str]], name: str) -> tuple[bytes, bytes, bytes, bytes]:
    (case,) = [v for v in rfc8032 if v["name"] == name]
    return (
        bytes.fromhex(case["secret_key_hex"]),
        bytes.fromhex(case["public_key_hex"]),
        bytes.fromhex(case["message_hex"]),
        bytes.fromhex(case["signature_hex"]),
    )


def _flip(data: bytes, index: int = 0) -> bytes:
    return data[:index] + bytes([data[index] ^ 0x01]) + data[index + 1 :]


def test_every_rfc8032_vector_is_listed_here(rfc8032: list[dict[str, str]]) -> None:
    assert sorted(v["name"] for v in rfc8032) == RFC8032_CASES


@pytest.mark.parametrize("name", RFC8032_CASES)
def test_signing_with_the_rfc8032_seed_reproduces_its_key_and_signature(
    rfc8032: list[dict[str, str]], name: str
) -> None:
    seed, public_key, message, signature = _rfc(rfc8032, name)
    signer = Ed25519Signer.from_seed(seed)
    assert signer.public_key == public_key
    assert signer.seed == seed
    assert signer.sign(message) == signature


@pytest.mark.parametrize("name", RFC8032_CASES)
def test_rfc8032_signatures_verify(rfc8032: list[dict[str, str]], name: str) -> None:
    _, public_key, message, signature = _rfc(rfc8032, name)
    verify_ed25519(public_key, message, signature)


@pytest.mark.parametrize("name", RFC8032_CASES)
@pytest.mark.parametrize("index", [0, 31, 32, 63])
def test_a_flipped_bit_in_an_rfc8032_signature_is_rejected(
    rfc8032: list[dict[str, str]], name: str, index: int
) -> None:
    _, public_key, message, signature = _rfc(rfc8032, name)
    with pytest.raises(SignatureInvalid) as caught:
        verify_ed25519(public_key, message, _flip(signature, index))
    assert caught.value.context["kid"] == derive_kid(ED25519, public_key)


def test_a_changed_message_is_rejected(rfc8032: list[dict[str, str]]) -> None:
    _, public_key, message, signature = _rfc(rfc8032, "rfc8032_test2")
    with pytest.raises(SignatureInvalid):
        verify_ed25519(public_key, _flip(message), signature)


@pytest.mark.parametrize("name", INTEROP_CASES)
def test_sdk_ed25519_signatures_verify_with_the_test_key(
    interop: dict[str, Any], interop_canonical: dict[str, bytes], name: str
) -> None:
    case = interop["ed25519_signatures"][name]
    key = interop["test_keys"]["ed25519"]
    dsm = domain_separated_message(case["context"], interop_canonical[case["payload_key"]])
    verify_ed25519(base64.b64decode(key["public_key_b64"]), dsm, base64.b64decode(case["sig_b64"]))


@pytest.mark.parametrize("name", INTEROP_CASES)
def test_signing_with_the_test_seed_reproduces_the_sdk_signature(
    interop: dict[str, Any], interop_canonical: dict[str, bytes], name: str
) -> None:
    case = interop["ed25519_signatures"][name]
    key = interop["test_keys"]["ed25519"]
    signer = Ed25519Signer.from_seed(base64.b64decode(key["secret_key_b64"])[:32])
    assert signer.kid == key["kid"] == case["signer_kid"]
    dsm = domain_separated_message(case["context"], interop_canonical[case["payload_key"]])
    assert base64.b64encode(signer.sign(dsm)).decode() == case["sig_b64"]


def test_a_generated_key_signs_and_verifies_and_knows_its_kid() -> None:
    signer = Ed25519Signer.generate()
    assert signer.alg == "ed25519"
    assert signer.kid == derive_kid("ed25519", signer.public_key)
    assert len(signer.public_key) == 32
    assert len(signer.seed) == 32
    verify_ed25519(signer.public_key, b"message", signer.sign(b"message"))


def test_another_key_does_not_verify_the_signature() -> None:
    signature = Ed25519Signer.generate().sign(b"m")
    with pytest.raises(SignatureInvalid):
        verify_ed25519(Ed25519Signer.generate().public_key, b"m", signature)


@pytest.mark.parametrize(("key_length", "sig_length"), [(31, 64), (33, 64), (32, 63), (32, 0)])
def test_malformed_key_or_signature_lengths_are_rejected_with_context(
    key_length: int, sig_length: int
) -> None:
    with pytest.raises(SignatureInvalid) as caught:
        verify_ed25519(bytes(key_length), b"m", bytes(sig_length))
    assert caught.value.context["public_key_length"] == key_length
    assert caught.value.context["signature_length"] == sig_length
    assert caught.value.context["rule"]


@pytest.mark.parametrize("seed", [b"", bytes(31), bytes(33), "0" * 32])
def test_a_seed_that_is_not_32_bytes_is_refused(seed: Any) -> None:
    with pytest.raises(CryptoError) as caught:
        Ed25519Signer.from_seed(seed)
    assert caught.value.code == "crypto.bad_seed"


def test_the_repr_names_the_kid_and_never_the_seed() -> None:
    signer = Ed25519Signer.from_seed(bytes(range(32)))
    assert signer.kid in repr(signer)
    assert signer.seed.hex() not in repr(signer)
