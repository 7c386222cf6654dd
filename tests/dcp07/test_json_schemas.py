"""The JSON Schemas published under schemas/ are what the record models generate (R40)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel, ConfigDict
from typer.testing import CliRunner

from accord.cli.main import app
from accord.dcp07 import (
    DisputeRecord,
    ObjectionRecord,
    ResolutionRecord,
    cosigned,
    read_record,
    record_document,
    signed,
)
from accord.dcp07.json_schemas import DCP07_MODELS, schema_files, stale_schema_files
from accord.errors import ValidationError
from tests.conftest import REPO_ROOT
from tests.dcp07._records import (
    ARBITRATORS,
    COMPLAINANT,
    PRINCIPALS,
    RESPONDENT,
    dispute_document,
    human_appeal_document,
    objection_document,
    resolution_document,
    signer_for,
)

PUBLISHED = REPO_ROOT / "schemas"


def published(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(
        (PUBLISHED / "dcp07" / f"{name}.schema.json").read_text("utf-8")
    )
    return schema


def test_r40_the_published_schemas_equal_what_the_models_generate() -> None:
    assert stale_schema_files(PUBLISHED, schema_files()) == [], (
        "schemas/ is stale: run `accord schema dcp --out schemas`"
    )


def signed_dispute() -> dict[str, Any]:
    return record_document(
        signed(read_record(DisputeRecord, dispute_document()), signer_for(COMPLAINANT))
    )


def signed_objection() -> dict[str, Any]:
    return record_document(
        signed(read_record(ObjectionRecord, objection_document()), signer_for(RESPONDENT))
    )


def cosigned_by(document: dict[str, Any], signers: tuple[str, ...]) -> dict[str, Any]:
    record = read_record(ResolutionRecord, document)
    for signer in signers:
        record = cosigned(record, signer, signer_for(signer))
    return record_document(record)


@pytest.mark.parametrize(
    ("name", "document"),
    [
        ("dispute_record", signed_dispute()),
        ("arbitration_resolution", cosigned_by(resolution_document(), ARBITRATORS[:2])),
        ("arbitration_resolution", cosigned_by(human_appeal_document(), PRINCIPALS)),
        ("objection_record", signed_objection()),
    ],
)
def test_r40_the_signed_section_examples_are_valid_under_the_published_schemas(
    name: str, document: dict[str, Any]
) -> None:
    schema = published(name)
    Draft202012Validator.check_schema(schema)
    Draft202012Validator(schema).validate(document)


def test_r40_the_published_schemas_refuse_what_the_models_refuse() -> None:
    validator = Draft202012Validator(published("dispute_record"))
    assert not validator.is_valid({**signed_dispute(), "dispute_type": "budget_conflict"})
    assert not validator.is_valid({**signed_dispute(), "dispute_id": "dispute:42"})
    assert not validator.is_valid({**signed_dispute(), "extra": 1})
    document = cosigned_by(resolution_document(), ARBITRATORS[:2])
    document["panel"]["threshold"]["m"] = 2.5
    assert not Draft202012Validator(published("arbitration_resolution")).is_valid(document)


def test_r44_a_published_record_is_signed_and_complete_though_a_draft_fits_the_model() -> None:
    draft = dispute_document()
    assert read_record(DisputeRecord, draft).signature is None
    validator = Draft202012Validator(published("dispute_record"))
    assert not validator.is_valid(draft)
    without_timeline = signed_dispute()
    del without_timeline["timeline"]
    assert not validator.is_valid(without_timeline)
    unsigned_resolution = resolution_document()
    assert not Draft202012Validator(published("arbitration_resolution")).is_valid(
        unsigned_resolution
    )
    assert not Draft202012Validator(published("objection_record")).is_valid(objection_document())


def test_a_stale_missing_or_orphaned_schema_file_is_reported(tmp_path: Path) -> None:
    files = schema_files()
    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    assert stale_schema_files(tmp_path, files) == []
    first, second, *_ = files
    (tmp_path / first).write_text("{}\n", encoding="utf-8")
    (tmp_path / second).unlink()
    (tmp_path / "dcp07" / "old.schema.json").write_text("{}\n", encoding="utf-8")
    assert stale_schema_files(tmp_path, files) == [first, second, "dcp07/old.schema.json"]


class _Extra(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    extra_id: str


def test_the_generator_takes_any_list_of_named_models() -> None:
    files = schema_files([*DCP07_MODELS, ("extra_record", _Extra)])
    schema = json.loads(files["dcp07/extra_record.schema.json"])
    assert schema["$id"] == "urn:accord:schemas:dcp07:extra_record.schema.json"
    assert schema["required"] == ["extra_id"]
    with pytest.raises(ValueError, match="repeat"):
        schema_files([*DCP07_MODELS, ("dispute_record", _Extra)])


def test_r41_the_jurisprudence_bundle_schema_is_published_and_requires_its_signature() -> None:
    schema = json.loads(schema_files()["dcp07/jurisprudence_bundle.schema.json"])
    assert "signature" in schema["required"]
    assert "superseded_by" not in schema["properties"]  # derived when reading (R26)


def test_accord_schema_dcp_writes_the_files_and_check_reports_staleness(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "schemas"
    stale = runner.invoke(app, ["schema", "dcp", "--out", str(out), "--check"])
    assert stale.exit_code == 1
    wrote = runner.invoke(app, ["schema", "dcp", "--out", str(out)])
    assert wrote.exit_code == 0
    assert sorted(p.name for p in (out / "dcp07").iterdir()) == [
        "arbitration_resolution.schema.json",
        "dispute_record.schema.json",
        "jurisprudence_bundle.schema.json",
        "objection_record.schema.json",
    ]
    fresh = runner.invoke(app, ["schema", "dcp", "--out", str(out), "--check"])
    assert fresh.exit_code == 0, fresh.output


DISPUTE_BREAKAGES: list[tuple[str, Any]] = [
    ("dispute_id", "disp:1234"),
    ("dispute_type", "budget_conflict"),
    ("severity", "urgent"),
    ("status", "in_negotiation"),
    ("current_escalation_level", "tier_4"),
    ("opened_at", "2026-03-01"),
    ("prev_hash", "sha256:abc"),
    ("prev_hash_secondary", "sha3-256:abc"),
    ("respondents", []),
    ("record_type", "objection_record"),
    ("dcp_version", "1.0"),
    ("surprise", 1),
]


@pytest.mark.parametrize(("field", "value"), DISPUTE_BREAKAGES)
def test_r40_the_published_dispute_schema_and_the_model_refuse_the_same_breakage(
    field: str, value: Any
) -> None:
    broken = {**signed_dispute(), field: value}
    assert not Draft202012Validator(published("dispute_record")).is_valid(broken)
    with pytest.raises(ValidationError) as caught:
        read_record(DisputeRecord, broken)
    assert caught.value.context["field"] == field


@pytest.mark.parametrize(("name", "model"), DCP07_MODELS)
def test_r40_every_field_the_model_requires_the_published_schema_requires(
    name: str, model: type[BaseModel]
) -> None:
    schema = published(name)
    required_by_model = [n for n, f in model.model_fields.items() if f.is_required()]
    assert set(required_by_model) <= set(schema["required"])
    assert schema["required"] == list(model.model_fields)
