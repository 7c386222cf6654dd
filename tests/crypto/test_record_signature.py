"""Record signatures cover the whole record except its signature fields, under a domain tag."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from accord.crypto import (
    DISPUTE_SIG_TAG,
    SIGNATURE_FIELDS,
    CanonicalizationError,
    Ed25519Signer,
    RecordSignature,
    SignatureInvalid,
    canonical_bytes,
    sign_record,
    signing_payload,
    verify_ed25519,
    verify_record,
)

RECORD: dict[str, Any] = {
    "record_type": "objection",
    "dispute_id": "dispute:42",
    "author": "agent:alpha",
    "confidence_bp": 8500,
    "evidence": ["sha256:" + "ab" * 32],
    "meta": {"round": 2, "final": False},
}


@pytest.fixture(scope="module")
def signer() -> Ed25519Signer:
    return Ed25519Signer.from_seed(bytes(range(32)))


@pytest.fixture(scope="module")
def signature(signer: Ed25519Signer) -> RecordSignature:
    return sign_record(RECORD, signer)


def test_a_signed_record_verifies(signer: Ed25519Signer, signature: RecordSignature) -> None:
    assert signature.alg == "ed25519"
    assert signature.kid == signer.kid
    assert signature.domain_sep == DISPUTE_SIG_TAG
    verify_record(RECORD, signature, signer.public_key)


def test_the_signed_bytes_are_the_tag_nul_and_the_canonical_record(
    signer: Ed25519Signer, signature: RecordSignature
) -> None:
    payload = signing_payload(RECORD)
    assert payload == DISPUTE_SIG_TAG.encode() + b"\x00" + canonical_bytes(RECORD)
    verify_ed25519(signer.public_key, payload, base64.b64decode(signature.sig_b64))


def test_signature_fields_are_left_out_of_the_signed_bytes(
    signer: Ed25519Signer, signature: RecordSignature
) -> None:
    assert SIGNATURE_FIELDS == ("signature", "signatures")
    signed = {**RECORD, "signature": signature.model_dump(), "signatures": [{"any": "thing"}]}
    assert signing_payload(signed) == signing_payload(RECORD)
    verify_record(signed, signature, signer.public_key)


def test_a_custom_exclusion_list_is_honoured(signer: Ed25519Signer) -> None:
    record = {**RECORD, "seal": "later"}
    signature = sign_record(record, signer, exclude=iter(["seal"]))
    verify_record(RECORD, signature, signer.public_key, exclude=["seal"])
    with pytest.raises(SignatureInvalid):
        verify_record(record, signature, signer.public_key)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("record_type", "resolution"),
        ("dispute_id", "dispute:43"),
        ("confidence_bp", 8501),
        ("evidence", []),
        ("meta", {"round": 2, "final": True}),
        ("added", None),
    ],
)
def test_changing_any_field_breaks_the_signature(
    signer: Ed25519Signer, signature: RecordSignature, field: str, value: object
) -> None:
    with pytest.raises(SignatureInvalid):
        verify_record({**RECORD, field: value}, signature, signer.public_key)


def test_removing_a_field_breaks_the_signature(
    signer: Ed25519Signer, signature: RecordSignature
) -> None:
    shorter = {key: value for key, value in RECORD.items() if key != "author"}
    with pytest.raises(SignatureInvalid):
        verify_record(shorter, signature, signer.public_key)


def test_a_signature_claiming_another_tag_is_rejected(
    signer: Ed25519Signer, signature: RecordSignature
) -> None:
    relabelled = signature.model_copy(update={"domain_sep": "DCP-AI.v2.Dispute"})
    with pytest.raises(SignatureInvalid) as caught:
        verify_record(RECORD, relabelled, signer.public_key)
    assert caught.value.context["field"] == "domain_sep"


def test_a_signature_made_under_another_tag_does_not_verify_under_ours(
    signer: Ed25519Signer,
) -> None:
    other = sign_record(RECORD, signer, tag="ACCORD-OTHER-v1")
    verify_record(RECORD, other, signer.public_key, tag="ACCORD-OTHER-v1")
    with pytest.raises(SignatureInvalid):
        verify_record(RECORD, other, signer.public_key)
    forged = other.model_copy(update={"domain_sep": DISPUTE_SIG_TAG})
    with pytest.raises(SignatureInvalid):
        verify_record(RECORD, forged, signer.public_key)


def test_a_changed_kid_is_rejected(signer: Ed25519Signer, signature: RecordSignature) -> None:
    with pytest.raises(SignatureInvalid) as caught:
        verify_record(RECORD, signature.model_copy(update={"kid": "0" * 32}), signer.public_key)
    assert caught.value.context["field"] == "kid"


def test_another_key_is_rejected(signature: RecordSignature) -> None:
    with pytest.raises(SignatureInvalid) as caught:
        verify_record(RECORD, signature, Ed25519Signer.generate().public_key)
    assert caught.value.context["field"] == "kid"


def test_another_keys_signature_relabelled_with_our_kid_is_rejected(
    signer: Ed25519Signer,
) -> None:
    intruder = sign_record(RECORD, Ed25519Signer.generate())
    with pytest.raises(SignatureInvalid):
        verify_record(RECORD, intruder.model_copy(update={"kid": signer.kid}), signer.public_key)


def test_another_algorithm_is_rejected(signer: Ed25519Signer, signature: RecordSignature) -> None:
    with pytest.raises(SignatureInvalid) as caught:
        verify_record(RECORD, signature.model_copy(update={"alg": "ml-dsa-65"}), signer.public_key)
    assert caught.value.context["field"] == "alg"


@pytest.mark.parametrize("sig_b64", ["not base64", "AAAA", ""])
def test_a_malformed_signature_is_rejected(
    signer: Ed25519Signer, signature: RecordSignature, sig_b64: str
) -> None:
    with pytest.raises(SignatureInvalid):
        verify_record(RECORD, signature.model_copy(update={"sig_b64": sig_b64}), signer.public_key)


def test_a_record_that_cannot_be_canonicalized_cannot_be_signed(signer: Ed25519Signer) -> None:
    with pytest.raises(CanonicalizationError):
        sign_record({"confidence": 0.85}, signer)


def test_the_signature_model_is_frozen_and_strict_about_fields(
    signature: RecordSignature,
) -> None:
    with pytest.raises(ValueError, match="frozen"):
        signature.kid = "x"  # type: ignore[misc]
    with pytest.raises(ValueError, match="extra"):
        RecordSignature.model_validate({**signature.model_dump(), "note": "x"})
