"""The jurisprudence bundle record (R23, R41): its shape, validators and signature."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError

from accord.crypto import Ed25519Signer, canonical_bytes
from accord.crypto.domain import DISPUTE_SIG_TAG
from accord.crypto.record_signature import sign_record, signing_payload
from accord.errors import SignatureInvalid
from accord.precedents import (
    GENESIS_LINK,
    SCHEMA_MODELS,
    BundleDraft,
    JurisprudenceBundle,
    build_bundle,
    verify_bundle,
)
from tests.precedents.conftest import Draft, draft_data

AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

R23_FIELDS = {
    "record_type",
    "dcp_version",
    "jurisprudence_id",
    "dispute_id",
    "resolution_id",
    "classification",
    "summary",
    "applicability",
    "supersedes",
    "authority_level",
    "created_at",
    "dispute_record_hash",
    "resolution_record_hash",
    "objections",
    "timestamp",
    "prev_hash",
    "prev_hash_secondary",
    "signature",
}


def _bundle(draft: BundleDraft, lead: Ed25519Signer) -> JurisprudenceBundle:
    return build_bundle(draft, signer=lead, at=AT, link=GENESIS_LINK)


def _signed_before_record_type(bundle: JurisprudenceBundle, lead: Ed25519Signer) -> str:
    """The JSON of a bundle as it was signed before bundles carried record_type/dcp_version."""
    body = bundle.signed_body()
    del body["record_type"], body["dcp_version"]
    signature = sign_record(body, lead)
    return canonical_bytes({**body, "signature": signature.model_dump()}).decode()


def test_r23_a_bundle_built_now_names_its_record_type_and_dcp_version(
    draft: Draft, lead: Ed25519Signer
) -> None:
    bundle = _bundle(draft(), lead)
    assert (bundle.record_type, bundle.dcp_version) == ("jurisprudence_bundle", "2.0")
    assert bundle.signed_body()["record_type"] == "jurisprudence_bundle"
    tampered = bundle.model_validate({**bundle.document(), "dcp_version": None})
    with pytest.raises(SignatureInvalid):
        verify_bundle(tampered, lead.public_key)


def test_r23_a_bundle_signed_before_record_type_existed_still_verifies_byte_for_byte(
    draft: Draft, lead: Ed25519Signer
) -> None:
    stored = _signed_before_record_type(_bundle(draft(), lead), lead)
    legacy = JurisprudenceBundle.model_validate_json(stored)
    assert (legacy.record_type, legacy.dcp_version) == (None, None)
    verify_bundle(legacy, lead.public_key)
    assert legacy.canonical().decode() == stored
    assert "record_type" not in legacy.document()


def test_r23_bundle_carries_every_section_7_field(draft: Draft, lead: Ed25519Signer) -> None:
    document = _bundle(draft(), lead).document()
    assert set(document) == R23_FIELDS
    assert set(document["classification"]) == {
        "dispute_type",
        "resource_category",
        "resolution_pattern",
        "tags",
    }
    assert set(document["summary"]) == {"facts", "holding", "rationale", "dissent"}
    assert set(document["applicability"]) == {
        "applicable_dispute_types",
        "applicable_conditions",
        "inapplicable_conditions",
    }
    assert document["jurisprudence_id"].startswith("jur:")
    assert document["created_at"] == document["timestamp"] == "2026-11-29T12:00:00.000000Z"
    assert document["prev_hash"] == document["prev_hash_secondary"] == "GENESIS"


def test_r23_bundle_signature_verifies_under_the_panel_leads_key(
    draft: Draft, lead: Ed25519Signer
) -> None:
    bundle = _bundle(draft(), lead)
    assert bundle.signature.domain_sep == DISPUTE_SIG_TAG == "DCP-DISPUTE-SIG-v2"
    assert bundle.signature.kid == lead.kid
    verify_bundle(bundle, lead.public_key)
    expected = DISPUTE_SIG_TAG.encode() + b"\x00" + canonical_bytes(bundle.signed_body())
    assert signing_payload(bundle.document()) == expected


def test_r23_bundle_signature_fails_when_the_holding_is_changed(
    draft: Draft, lead: Ed25519Signer
) -> None:
    bundle = _bundle(draft(), lead)
    document = bundle.document()
    document["summary"]["holding"] = "The other agent wins."
    altered = JurisprudenceBundle.model_validate(document)
    with pytest.raises(SignatureInvalid):
        verify_bundle(altered, lead.public_key)


def test_r23_bundle_signature_fails_under_another_key(draft: Draft, lead: Ed25519Signer) -> None:
    other = Ed25519Signer.from_seed(bytes(32))
    with pytest.raises(SignatureInvalid):
        verify_bundle(_bundle(draft(), lead), other.public_key)


def test_r23_bundle_round_trips_through_its_json(draft: Draft, lead: Ed25519Signer) -> None:
    bundle = _bundle(draft(), lead)
    again = JurisprudenceBundle.model_validate_json(bundle.canonical())
    assert again == bundle
    verify_bundle(again, lead.public_key)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"dispute_record_hash": "sha256:" + "A" * 64}, "dispute_record_hash"),
        ({"resolution_record_hash": "sha3-256:" + "b" * 64}, "resolution_record_hash"),
        ({"dispute_id": "case:019ad0f4-1111-7000-8000-000000000001"}, "dispute_id"),
        ({"authority_level": "supreme_court"}, "authority_level"),
        ({"dispute_type": "billing_conflict"}, "classification"),
        ({"supersedes": ["jur:not-a-uuid"]}, "supersedes"),
    ],
)
def test_r23_bundle_refuses_malformed_ids_hashes_and_tiers(
    changes: dict[str, Any], field: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        BundleDraft.model_validate(draft_data(**changes))
    assert caught.value.errors()[0]["loc"][0] == field


def test_r23_bundle_refuses_a_float_anywhere() -> None:
    data = draft_data()
    data["summary"]["holding"] = 0.5
    with pytest.raises(ValidationError):
        BundleDraft.model_validate(data)


def test_r23_bundle_refuses_control_characters_but_keeps_newlines_in_prose() -> None:
    data = draft_data(conditions=["shared\u202egpu"])
    with pytest.raises(ValidationError, match="printable"):
        BundleDraft.model_validate(data)
    data = draft_data()
    data["summary"]["rationale"] = "first\x00second"
    with pytest.raises(ValidationError, match="newlines and tabs"):
        BundleDraft.model_validate(data)
    assert "\n" in BundleDraft.model_validate(draft_data()).summary.facts


def test_r23_bundle_refuses_a_condition_both_applicable_and_inapplicable() -> None:
    with pytest.raises(ValidationError, match="both applicable and inapplicable"):
        BundleDraft.model_validate(draft_data(conditions=["night"], barred=["night"]))


def test_r23_bundle_refuses_a_condition_listed_twice() -> None:
    with pytest.raises(ValidationError, match="listed twice"):
        BundleDraft.model_validate(draft_data(conditions=["night", "night"]))


def test_r26_superseded_by_is_never_a_field_of_the_signed_bundle(
    draft: Draft, lead: Ed25519Signer
) -> None:
    with pytest.raises(ValidationError, match="derived when reading"):
        BundleDraft.model_validate({**draft_data(), "superseded_by": []})
    document = _bundle(draft(), lead).document()
    with pytest.raises(ValidationError, match="derived when reading"):
        JurisprudenceBundle.model_validate({**document, "superseded_by": []})
    assert "superseded_by" not in document


def test_r26_a_bundle_cannot_supersede_itself(draft: Draft, lead: Ed25519Signer) -> None:
    document = _bundle(draft(), lead).document()
    document["supersedes"] = [document["jurisprudence_id"]]
    with pytest.raises(ValidationError, match="supersede itself"):
        JurisprudenceBundle.model_validate(document)


def test_r41_bundle_model_has_a_json_schema_naming_every_field() -> None:
    (model,) = SCHEMA_MODELS
    schema = model.model_json_schema()
    assert set(schema["properties"]) == R23_FIELDS
    assert set(schema["required"]) >= {"jurisprudence_id", "signature", "authority_level"}
