"""Export to and import from the reference SDK's DCP-07 format (issue 12, item 12).

Exports are valid under the SDK's own JSON Schemas (vendored in tests/vectors/dcp/schemas) and
verified by the ``dcp_ai`` SDK; imports verify the SDK's composite signature and agree with the
Accord record they are a version of. What the SDK format cannot say is refused on export.
"""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path
from typing import Any

import dcp_ai.providers.ed25519_provider as ed25519_provider
import dcp_ai.providers.ml_dsa_65_provider as ml_dsa_65_provider
import dcp_ai.v2 as sdk
import dcp_ai.v2.composite_ops as composite_ops
import dcp_ai.v2.conflict_resolution as conflict_resolution
import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from accord.crypto import (
    DCP_DISPUTE_CONTEXT,
    ED25519,
    ML_DSA_65,
    Ed25519Signer,
    MlDsa65Signer,
    sha256_hex,
)
from accord.dcp07 import (
    DisputeRecord,
    ObjectionRecord,
    ResolutionRecord,
    SdkArbitrationResolution,
    SdkDisputeRecord,
    SdkObjectionRecord,
    export_dispute,
    export_objection,
    export_resolution,
    import_dispute,
    import_objection,
    import_resolution,
    read_record,
    record_canonical_bytes,
    sdk_document,
    signed,
)
from accord.errors import SignatureInvalid, ValidationError
from tests.conftest import DCP_VECTORS
from tests.dcp07._records import (
    COMPLAINANT,
    dispute_document,
    objection_document,
    party,
    resolution_document,
    signer_for,
)

NONCE = "ab" * 32
SDK_SCHEMAS = DCP_VECTORS / "schemas"


def _schemas() -> dict[str, Any]:
    return {
        path.name: json.loads(path.read_text("utf-8"))
        for path in sorted(SDK_SCHEMAS.glob("*.schema.json"))
    }


SCHEMAS = _schemas()
REGISTRY: Registry[Any] = Registry().with_resources(
    (schema["$id"], Resource.from_contents(schema)) for schema in SCHEMAS.values()
)


def sdk_valid(file_name: str, document: dict[str, Any]) -> None:
    Draft202012Validator(SCHEMAS[file_name], registry=REGISTRY).validate(document)


@pytest.fixture(scope="module")
def keys() -> tuple[Ed25519Signer, MlDsa65Signer]:
    return Ed25519Signer.generate(), MlDsa65Signer.generate()


@pytest.fixture(scope="module")
def registry() -> Any:
    registry = sdk.AlgorithmRegistry()
    registry.register_signer(ed25519_provider.Ed25519Provider())
    registry.register_signer(ml_dsa_65_provider.MlDsa65Provider())
    return registry


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def sdk_verifies(registry: Any, document: dict[str, Any], keys: tuple[Any, Any]) -> bool:
    classical, pq = keys
    unsigned = {k: v for k, v in document.items() if k != "composite_sig"}
    result = asyncio.run(
        composite_ops.composite_verify(
            registry,
            DCP_DISPUTE_CONTEXT,
            sdk.canonicalize_v2(unsigned).encode("utf-8"),
            document["composite_sig"],
            _b64(classical.public_key),
            _b64(pq.public_key),
        )
    )
    return bool(result.valid and result.classical_valid and result.pq_valid)


def dispute() -> DisputeRecord:
    return signed(read_record(DisputeRecord, dispute_document()), signer_for(COMPLAINANT))


def resolution() -> ResolutionRecord:
    return read_record(ResolutionRecord, resolution_document())


def objection(kind: str = "procedural") -> ObjectionRecord:
    return read_record(ObjectionRecord, {**objection_document(), "objection_type": kind})


def test_the_sdk_verifies_an_exported_dispute_valid_under_its_schema_and_it_imports_back(
    registry: Any, keys: tuple[Ed25519Signer, MlDsa65Signer]
) -> None:
    record = dispute()
    exported = sdk_document(
        export_dispute(record, session_nonce=NONCE, classical=keys[0], pq=keys[1])
    )
    sdk_valid("dispute_record.schema.json", exported)
    assert sdk_verifies(registry, exported, keys)
    assert exported["initiator_agent_id"] == COMPLAINANT
    assert exported["evidence_hashes"] == [
        e.content_hash[len("sha256:") :] for e in record.evidence
    ]
    assert (exported["status"], exported["timestamp"]) == ("open", record.opened_at)
    back = import_dispute(
        json.dumps(exported),
        known=record,
        classical_public_key=keys[0].public_key,
        pq_public_key=keys[1].public_key,
    )
    assert back is record  # nothing changed: the signed Accord record stands


def test_an_sdk_escalation_of_an_exported_dispute_imports_as_an_unsigned_escalated_draft(
    registry: Any,
) -> None:
    def key_info(alg: str) -> Any:
        pair = asyncio.run(registry.get_signer(alg).generate_keypair())
        return composite_ops.CompositeKeyInfo(
            kid=pair["kid"],
            alg=alg,
            secret_key_b64=pair["secret_key_b64"],
            public_key_b64=pair["public_key_b64"],
        )

    classical, pq = key_info(ED25519), key_info(ML_DSA_65)
    record = dispute()
    exported = sdk_document(
        export_dispute(record, session_nonce=NONCE, classical=signer_for("x"), pq=None)
    )
    escalated = asyncio.run(
        conflict_resolution.escalate_dispute(registry, classical, pq, exported, NONCE)
    )
    sdk_valid("dispute_record.schema.json", escalated)
    draft = import_dispute(
        escalated,
        known=record,
        classical_public_key=base64.b64decode(classical.public_key_b64),
        pq_public_key=base64.b64decode(pq.public_key_b64),
    )
    assert (draft.status.value, draft.current_escalation_level.value) == (
        "escalated",
        "contextual_arbitration",
    )
    assert draft.signature is None
    assert (
        draft.model_copy(
            update={
                "status": record.status,
                "current_escalation_level": record.current_escalation_level,
                "signature": record.signature,
            }
        )
        == record
    )


def test_the_exported_timestamp_is_the_latest_timeline_instant(
    keys: tuple[Ed25519Signer, MlDsa65Signer],
) -> None:
    document = dispute_document()
    document["timeline"] = [
        {"event": "dispute_opened", "timestamp": "2026-03-01T10:05:00Z", "actor": COMPLAINANT},
        {"event": "evidence", "timestamp": "2026-03-01T10:05:00.500000Z", "actor": COMPLAINANT},
    ]
    exported = export_dispute(
        read_record(DisputeRecord, document), session_nonce=NONCE, classical=keys[0], pq=None
    )
    assert exported.timestamp == "2026-03-01T10:05:00.500000Z"


def test_a_tampered_sdk_dispute_is_refused(keys: tuple[Ed25519Signer, MlDsa65Signer]) -> None:
    record = dispute()
    exported = sdk_document(
        export_dispute(record, session_nonce=NONCE, classical=keys[0], pq=keys[1])
    )
    with pytest.raises(SignatureInvalid):
        import_dispute(
            {**exported, "status": "resolved"},
            known=record,
            classical_public_key=keys[0].public_key,
            pq_public_key=keys[1].public_key,
        )


def test_an_sdk_dispute_about_other_evidence_is_refused_naming_the_field(
    keys: tuple[Ed25519Signer, MlDsa65Signer],
) -> None:
    record = dispute()
    other = read_record(
        DisputeRecord, {**dispute_document(), "evidence": dispute_document()["evidence"][:1]}
    )
    exported = sdk_document(export_dispute(other, session_nonce=NONCE, classical=keys[0], pq=None))
    with pytest.raises(ValidationError) as caught:
        import_dispute(
            exported,
            known=record,
            classical_public_key=keys[0].public_key,
            pq_public_key=None,
            require_hybrid=False,
        )
    assert (caught.value.code, caught.value.context["field"]) == (
        "dcp.sdk_import_mismatch",
        "evidence_hashes",
    )


def test_a_classical_only_export_imports_only_when_hybrid_is_not_required(
    keys: tuple[Ed25519Signer, MlDsa65Signer],
) -> None:
    record = dispute()
    exported = sdk_document(export_dispute(record, session_nonce=NONCE, classical=keys[0], pq=None))
    assert exported["composite_sig"]["binding"] == "classical_only"
    with pytest.raises(SignatureInvalid):
        import_dispute(
            exported, known=record, classical_public_key=keys[0].public_key, pq_public_key=None
        )


def test_r05_a_dispute_with_two_respondents_is_refused_on_export(
    keys: tuple[Ed25519Signer, MlDsa65Signer],
) -> None:
    document = dispute_document()
    document["respondents"].append(party("agent:third-party", "principal:carol", "org:acme"))
    record = read_record(DisputeRecord, document)
    with pytest.raises(ValidationError) as caught:
        export_dispute(record, session_nonce=NONCE, classical=keys[0], pq=keys[1])
    assert (caught.value.code, caught.value.context["requirement"]) == (
        "dcp.sdk_export_lossy",
        "R5",
    )
    assert caught.value.context["field"] == "respondents"


@pytest.mark.parametrize(
    ("status", "level"),
    [
        ("withdrawn", "direct_negotiation"),
        ("abandoned", "human_appeal"),
        ("negotiating", "contextual_arbitration"),
        ("escalated", "direct_negotiation"),
    ],
)
def test_r06_a_status_the_sdk_cannot_say_is_refused_on_export(
    status: str, level: str, keys: tuple[Ed25519Signer, MlDsa65Signer]
) -> None:
    document = {**dispute_document(), "status": status, "current_escalation_level": level}
    with pytest.raises(ValidationError) as caught:
        export_dispute(
            read_record(DisputeRecord, document), session_nonce=NONCE, classical=keys[0], pq=None
        )
    assert (caught.value.context["requirement"], caught.value.context["field"]) == ("R6", "status")


def test_an_agent_id_shorter_than_the_sdk_allows_is_refused_naming_the_sdk_field(
    keys: tuple[Ed25519Signer, MlDsa65Signer],
) -> None:
    document = dispute_document()
    document["complainant"]["agent_id"] = "a:1"
    for item in document["evidence"]:
        item["submitted_by"] = document["respondents"][0]["agent_id"]
    with pytest.raises(ValidationError) as caught:
        export_dispute(
            read_record(DisputeRecord, document), session_nonce=NONCE, classical=keys[0], pq=None
        )
    assert caught.value.context["field"] == "initiator_agent_id"


def test_the_sdk_verifies_an_exported_resolution_and_it_imports_back(
    registry: Any, keys: tuple[Ed25519Signer, MlDsa65Signer]
) -> None:
    record = resolution()
    exported = sdk_document(
        export_resolution(record, session_nonce=NONCE, classical=keys[0], pq=keys[1])
    )
    sdk_valid("arbitration_resolution.schema.json", exported)
    assert sdk_verifies(registry, exported, keys)
    assert exported["binding"] is True
    assert exported["arbitrator_ids"] == [m.agent_id for m in record.panel.members]  # type: ignore[union-attr]
    back = import_resolution(
        exported,
        known=record,
        classical_public_key=keys[0].public_key,
        pq_public_key=keys[1].public_key,
    )
    assert back is record


def test_r15_a_split_decision_is_refused_on_export(
    keys: tuple[Ed25519Signer, MlDsa65Signer],
) -> None:
    document = resolution_document()
    document["panel"]["members"][1]["vote"] = "dissent"
    document["panel"].update(votes_for=1, votes_against=2)
    document["resolution_type"] = "split_decision"
    with pytest.raises(ValidationError) as caught:
        export_resolution(
            read_record(ResolutionRecord, document), session_nonce=NONCE, classical=keys[0], pq=None
        )
    assert caught.value.context["requirement"] == "R15"


def test_a_resolution_import_refuses_an_sdk_record_that_disagrees(
    keys: tuple[Ed25519Signer, MlDsa65Signer],
) -> None:
    record = resolution()
    recommended = read_record(
        ResolutionRecord, {**resolution_document(), "resolution_type": "recommended_resolution"}
    )
    exported = sdk_document(
        export_resolution(recommended, session_nonce=NONCE, classical=keys[0], pq=keys[1])
    )
    assert exported["binding"] is False
    with pytest.raises(ValidationError) as caught:
        import_resolution(
            exported,
            known=record,
            classical_public_key=keys[0].public_key,
            pq_public_key=keys[1].public_key,
        )
    assert caught.value.context["field"] == "binding"


def test_the_sdk_verifies_an_exported_objection_and_it_imports_back(
    registry: Any, keys: tuple[Ed25519Signer, MlDsa65Signer]
) -> None:
    record, decided = objection(), resolution()
    exported = sdk_document(
        export_objection(
            record,
            resolution=decided,
            objection_type="policy_violation",
            session_nonce=NONCE,
            classical=keys[0],
            pq=keys[1],
        )
    )
    sdk_valid("objection_record.schema.json", exported)
    assert sdk_verifies(registry, exported, keys)
    assert exported["directive_hash"] == sha256_hex(record_canonical_bytes(decided))
    assert exported["human_escalation_required"] is False
    back = import_objection(
        exported,
        known=record,
        resolution=decided,
        classical_public_key=keys[0].public_key,
        pq_public_key=keys[1].public_key,
    )
    assert back is record


def test_r29_a_rights_objection_exports_as_requiring_human_escalation(
    keys: tuple[Ed25519Signer, MlDsa65Signer],
) -> None:
    exported = export_objection(
        objection("rights"),
        resolution=resolution(),
        objection_type="ethical",
        session_nonce=NONCE,
        classical=keys[0],
        pq=None,
    )
    assert exported.human_escalation_required is True


def test_an_objection_is_exported_only_with_the_resolution_it_objects_to(
    keys: tuple[Ed25519Signer, MlDsa65Signer],
) -> None:
    other = read_record(
        ResolutionRecord,
        {**resolution_document(), "resolution_id": "res:00000000-0000-7000-8000-000000000000"},
    )
    with pytest.raises(ValidationError) as caught:
        export_objection(
            objection(),
            resolution=other,
            objection_type="safety",
            session_nonce=NONCE,
            classical=keys[0],
            pq=None,
        )
    assert caught.value.context["field"] == "resolution_id"


def test_the_sdk_example_dispute_cannot_be_imported_over_an_accord_record(
    dcp_vectors_dir: Path, keys: tuple[Ed25519Signer, MlDsa65Signer]
) -> None:
    example = json.loads((dcp_vectors_dir / "example_dispute_record_v2.json").read_text("utf-8"))
    sdk_valid("dispute_record.schema.json", example)
    with pytest.raises(SignatureInvalid):  # its signature is a dummy
        import_dispute(
            example,
            known=dispute(),
            classical_public_key=keys[0].public_key,
            pq_public_key=keys[1].public_key,
        )


SDK_MODELS = [
    ("dispute_record.schema.json", "example_dispute_record_v2.json", SdkDisputeRecord),
    (
        "arbitration_resolution.schema.json",
        "example_arbitration_resolution_v2.json",
        SdkArbitrationResolution,
    ),
    ("objection_record.schema.json", "example_objection_record_v2.json", SdkObjectionRecord),
]

BREAKAGES: list[tuple[str, Any]] = [
    ("session_nonce", "not-hex"),
    ("dcp_version", "1.0"),
    ("surprise", "an extra field"),
]


@pytest.mark.parametrize(("schema", "example", "model"), SDK_MODELS)
def test_the_sdk_format_models_accept_and_refuse_what_the_sdk_schemas_do(
    schema: str, example: str, model: Any
) -> None:
    document = json.loads((DCP_VECTORS / example).read_text("utf-8"))
    sdk_valid(schema, document)
    model.model_validate(document)
    validator = Draft202012Validator(SCHEMAS[schema], registry=REGISTRY)
    for field, value in BREAKAGES:
        broken = {**document, field: value}
        assert not validator.is_valid(broken), field
        with pytest.raises(ValueError, match=field):
            model.model_validate(broken)
    for field in SCHEMAS[schema]["required"]:
        missing = {k: v for k, v in document.items() if k != field}
        assert not validator.is_valid(missing), field
        with pytest.raises(ValueError, match=field):
            model.model_validate(missing)
    # "format": "date-time" is only an annotation to jsonschema without a format checker
    # installed; the model holds timestamps to RFC 3339, as the schema means.
    with pytest.raises(ValueError, match="timestamp"):
        model.model_validate({**document, "timestamp": "yesterday"})
