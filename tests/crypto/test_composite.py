"""Composite signatures: every SDK vector behaves as specified and Accord's own round-trip."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from accord.crypto import (
    DCP_DISPUTE_CONTEXT,
    CompositeSignature,
    Ed25519Signer,
    MlDsa65Signer,
    SignatureEntry,
    SignatureInvalid,
    composite_sign,
    composite_verify,
)

COMPOSITE_CASES = ["passport_composite", "intent_composite", "audit_composite"]
ATTACKS = [
    "stripping_pq_removal",
    "stripping_pq_with_downgrade",
    "tampered_classical_sig",
    "tampered_pq_sig",
    "cross_context_replay",
]
CANONICAL = b'{"dispute_id":"d-1","status":"open"}'


@pytest.fixture(scope="module")
def classical() -> Ed25519Signer:
    return Ed25519Signer.from_seed(bytes(32))


@pytest.fixture(scope="module")
def pq() -> MlDsa65Signer:
    return MlDsa65Signer.from_seed(bytes(range(32)))


@pytest.fixture(scope="module")
def hybrid(classical: Ed25519Signer, pq: MlDsa65Signer) -> CompositeSignature:
    return composite_sign(DCP_DISPUTE_CONTEXT, CANONICAL, classical, pq)


def _keys(interop: dict[str, Any]) -> tuple[bytes, bytes]:
    keys = interop["test_keys"]
    return (
        base64.b64decode(keys["ed25519"]["public_key_b64"]),
        base64.b64decode(keys["ml_dsa_65"]["public_key_b64"]),
    )


def _with(sig: CompositeSignature, **changes: Any) -> CompositeSignature:
    return CompositeSignature.model_validate({**sig.model_dump(), **changes})


def test_every_attack_vector_is_listed_here(interop: dict[str, Any]) -> None:
    assert sorted(interop["attack_vectors"]) == sorted(ATTACKS)
    assert sorted(interop["composite_signatures"]) == sorted(COMPOSITE_CASES)
    assert sorted(interop["classical_only_signatures"]) == ["intent_classical_only"]


@pytest.mark.parametrize("name", COMPOSITE_CASES)
def test_sdk_composite_signatures_verify_and_dump_back_to_the_same_json(
    interop: dict[str, Any], interop_canonical: dict[str, bytes], name: str
) -> None:
    case = interop["composite_signatures"][name]
    sig = CompositeSignature.model_validate(case["composite_sig"])
    assert sig.model_dump() == case["composite_sig"]
    classical_key, pq_key = _keys(interop)
    composite_verify(
        case["context"], interop_canonical[case["payload_key"]], sig, classical_key, pq_key
    )


def test_a_sdk_classical_only_signature_verifies_only_when_hybrid_is_not_required(
    interop: dict[str, Any], interop_canonical: dict[str, bytes]
) -> None:
    case = interop["classical_only_signatures"]["intent_classical_only"]
    sig = CompositeSignature.model_validate(case["composite_sig"])
    assert sig.model_dump() == case["composite_sig"]
    canonical = interop_canonical[case["payload_key"]]
    classical_key, _ = _keys(interop)
    composite_verify(case["context"], canonical, sig, classical_key, None, require_hybrid=False)
    with pytest.raises(SignatureInvalid) as caught:
        composite_verify(case["context"], canonical, sig, classical_key, None)
    assert caught.value.context["field"] == "binding"


@pytest.mark.parametrize("name", ATTACKS)
@pytest.mark.parametrize("require_hybrid", [True, False])
def test_every_attack_vector_is_rejected_unless_it_is_only_a_downgrade_allowed_by_policy(
    interop: dict[str, Any],
    interop_canonical: dict[str, bytes],
    name: str,
    require_hybrid: bool,
) -> None:
    case = interop["attack_vectors"][name]
    sig = CompositeSignature.model_validate(case["composite_sig"])
    context = case.get("verify_context", case.get("context"))
    canonical = interop_canonical[case["payload_key"]]
    classical_key, pq_key = _keys(interop)

    def verify() -> None:
        composite_verify(
            context, canonical, sig, classical_key, pq_key, require_hybrid=require_hybrid
        )

    downgrade_allowed = (
        sig.binding == "classical_only"
        and case.get("expected_classical_valid") is True
        and not require_hybrid
    )
    if case.get("expected_valid") is True or downgrade_allowed:
        verify()
    else:
        with pytest.raises(SignatureInvalid):
            verify()


def test_the_replayed_signature_is_valid_in_the_context_it_was_made_for(
    interop: dict[str, Any], interop_canonical: dict[str, bytes]
) -> None:
    case = interop["attack_vectors"]["cross_context_replay"]
    sig = CompositeSignature.model_validate(case["composite_sig"])
    classical_key, pq_key = _keys(interop)
    canonical = interop_canonical[case["payload_key"]]
    composite_verify(case["sign_context"], canonical, sig, classical_key, pq_key)


@pytest.mark.parametrize(
    ("session", "artifact"), [("session_a", "passport"), ("session_b", "intent")]
)
def test_session_splicing_artifacts_each_verify_under_their_own_context(
    interop: dict[str, Any], session: str, artifact: str
) -> None:
    case = interop["session_splicing"][session]
    context = {"passport": "DCP-AI.v2.AgentPassport", "intent": "DCP-AI.v2.Intent"}[artifact]
    sig = CompositeSignature.model_validate(case[f"{artifact}_composite_sig"])
    classical_key, pq_key = _keys(interop)
    composite_verify(context, case[f"{artifact}_canonical"].encode(), sig, classical_key, pq_key)


def test_our_hybrid_signature_round_trips(
    hybrid: CompositeSignature, classical: Ed25519Signer, pq: MlDsa65Signer
) -> None:
    assert hybrid.binding == "pq_over_classical"
    assert hybrid.classical.kid == classical.kid
    assert hybrid.pq is not None
    assert hybrid.pq.kid == pq.kid
    composite_verify(DCP_DISPUTE_CONTEXT, CANONICAL, hybrid, classical.public_key, pq.public_key)
    again = CompositeSignature.model_validate_json(hybrid.model_dump_json())
    composite_verify(DCP_DISPUTE_CONTEXT, CANONICAL, again, classical.public_key, pq.public_key)


def test_our_classical_only_signature_round_trips_when_allowed(classical: Ed25519Signer) -> None:
    sig = composite_sign(DCP_DISPUTE_CONTEXT, CANONICAL, classical, None)
    assert sig.model_dump()["pq"] is None
    assert sig.binding == "classical_only"
    composite_verify(
        DCP_DISPUTE_CONTEXT, CANONICAL, sig, classical.public_key, None, require_hybrid=False
    )


def test_a_changed_payload_is_rejected(
    hybrid: CompositeSignature, classical: Ed25519Signer, pq: MlDsa65Signer
) -> None:
    with pytest.raises(SignatureInvalid):
        composite_verify(
            DCP_DISPUTE_CONTEXT, CANONICAL + b" ", hybrid, classical.public_key, pq.public_key
        )


def test_a_hybrid_signature_needs_the_pq_public_key(
    hybrid: CompositeSignature, classical: Ed25519Signer
) -> None:
    with pytest.raises(SignatureInvalid) as caught:
        composite_verify(DCP_DISPUTE_CONTEXT, CANONICAL, hybrid, classical.public_key, None)
    assert caught.value.context["field"] == "pq_public_key"


def test_a_classical_only_signature_smuggling_a_pq_part_is_rejected(
    hybrid: CompositeSignature, classical: Ed25519Signer, pq: MlDsa65Signer
) -> None:
    smuggled = _with(hybrid, binding="classical_only")
    with pytest.raises(SignatureInvalid) as caught:
        composite_verify(
            DCP_DISPUTE_CONTEXT,
            CANONICAL,
            smuggled,
            classical.public_key,
            pq.public_key,
            require_hybrid=False,
        )
    assert caught.value.context["field"] == "pq"


def test_swapping_in_another_classical_signature_breaks_the_pq_binding(
    classical: Ed25519Signer, pq: MlDsa65Signer, hybrid: CompositeSignature
) -> None:
    other = composite_sign(DCP_DISPUTE_CONTEXT, CANONICAL, classical, pq)
    assert other.pq is not None
    spliced = _with(hybrid, pq=other.pq.model_dump())
    # Ed25519 is deterministic, so the classical halves agree and the splice is harmless...
    composite_verify(DCP_DISPUTE_CONTEXT, CANONICAL, spliced, classical.public_key, pq.public_key)
    # ...but a classical signature from another key cannot be bound to this pq signature.
    intruder = Ed25519Signer.generate()
    forged = composite_sign(DCP_DISPUTE_CONTEXT, CANONICAL, intruder, None)
    hijacked = _with(hybrid, classical=forged.classical.model_dump())
    with pytest.raises(SignatureInvalid):
        composite_verify(
            DCP_DISPUTE_CONTEXT, CANONICAL, hijacked, intruder.public_key, pq.public_key
        )


@pytest.mark.parametrize(
    ("part", "field", "value", "rejected_field"),
    [
        ("classical", "alg", "ml-dsa-65", "classical.alg"),
        ("classical", "kid", "0" * 32, "classical.kid"),
        ("classical", "sig_b64", "not base64!", "classical.sig_b64"),
        ("pq", "alg", "ed25519", "pq.alg"),
        ("pq", "kid", "0" * 32, "pq.kid"),
        ("pq", "sig_b64", "@@@@", "pq.sig_b64"),
    ],
)
def test_a_wrong_alg_kid_or_encoding_in_either_part_is_rejected(
    hybrid: CompositeSignature,
    classical: Ed25519Signer,
    pq: MlDsa65Signer,
    part: str,
    field: str,
    value: str,
    rejected_field: str,
) -> None:
    entry = getattr(hybrid, part)
    assert isinstance(entry, SignatureEntry)
    broken = _with(hybrid, **{part: {**entry.model_dump(), field: value}})
    with pytest.raises(SignatureInvalid) as caught:
        composite_verify(
            DCP_DISPUTE_CONTEXT, CANONICAL, broken, classical.public_key, pq.public_key
        )
    assert caught.value.context["field"] == rejected_field


def test_the_model_refuses_unknown_bindings_and_extra_fields(hybrid: CompositeSignature) -> None:
    with pytest.raises(ValueError, match="binding"):
        _with(hybrid, binding="pq_only")
    with pytest.raises(ValueError, match="extra"):
        _with(hybrid, note="hi")
