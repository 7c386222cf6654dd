"""JSON Schemas generated from the record models, published under ``schemas/`` (R40).

:func:`published_schemas` takes a list of ``(name, model)``, so another room's record
joins by adding one pair to :data:`DCP07_MODELS` (the precedents room's jurisprudence bundle did).
The files are what :func:`schema_files` renders; a test keeps ``schemas/`` equal to it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel

from accord.dcp07.dispute_record import DisputeRecord
from accord.dcp07.objection_record import ObjectionRecord
from accord.dcp07.resolution_record import ResolutionRecord
from accord.precedents import JurisprudenceBundle

SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_BASE_ID: Final = "urn:accord:schemas:dcp07:"
SCHEMA_FOLDER: Final = "dcp07"
"""Folder under the output directory (``schemas/dcp07/`` at the repository root)."""

DCP07_MODELS: Final[tuple[tuple[str, type[BaseModel]], ...]] = (
    ("dispute_record", DisputeRecord),
    ("arbitration_resolution", ResolutionRecord),
    ("objection_record", ObjectionRecord),
    ("jurisprudence_bundle", JurisprudenceBundle),
)
"""The records Accord publishes schemas for, by file name stem."""


OMITTED_WHEN_ABSENT = "x-omitted-when-absent"
"""The JSON Schema marker of a model field the record leaves out when it has no value."""


def model_schema(name: str, model: type[BaseModel]) -> dict[str, Any]:
    """The draft 2020-12 schema of ``model`` as Accord publishes it, with ``$schema`` and ``$id``.

    It describes a *published* record, which is stricter than what the model accepts: every
    field is present (Accord writes defaults out), and the record is signed (``signature`` is
    not null; ``signatures`` has at least one entry). An unsigned draft fits the model only.
    """
    body = model.model_json_schema(mode="validation")
    for definition in (body, *body.get("$defs", {}).values()):
        if "properties" in definition:
            definition["required"] = [
                name
                for name, field in definition["properties"].items()
                if not _omitted_when_absent(field)
            ]
    properties = body.get("properties", {})
    if "signature" in properties and "anyOf" in properties["signature"]:  # optional in drafts
        signature = properties["signature"]
        [reference] = [option for option in signature.pop("anyOf") if option != {"type": "null"}]
        signature.pop("default", None)
        signature.update(reference)
    if "signatures" in properties:
        properties["signatures"].pop("default", None)
        properties["signatures"]["minItems"] = 1
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": f"{SCHEMA_BASE_ID}{name}.schema.json",
        **body,
    }


def _omitted_when_absent(field: dict[str, Any]) -> bool:
    """A field marked ``OMITTED_WHEN_ABSENT`` (left out of the record rather than written as
    null): optional in the published schema, and a string when present."""
    if not field.pop(OMITTED_WHEN_ABSENT, False):
        return False
    [present] = [option for option in field.pop("anyOf") if option != {"type": "null"}]
    field.pop("default", None)
    field.update(present)
    return True


def schema_files(
    models: Sequence[tuple[str, type[BaseModel]]] = DCP07_MODELS,
) -> dict[str, str]:
    """Relative path (``dcp07/<name>.schema.json``) → file text, for every ``(name, model)``."""
    names = [name for name, _ in models]
    if len(set(names)) != len(names):
        raise ValueError(f"schema names repeat: {names}")
    return {
        f"{SCHEMA_FOLDER}/{name}.schema.json": json.dumps(
            model_schema(name, model), indent=2, ensure_ascii=False
        )
        + "\n"
        for name, model in models
    }


def write_schema_files(out_dir: Path, files: Mapping[str, str]) -> list[Path]:
    """Write ``files`` under ``out_dir``; the paths written, in order."""
    written: list[Path] = []
    for relative, text in files.items():
        path = out_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def stale_schema_files(out_dir: Path, files: Mapping[str, str]) -> list[str]:
    """The relative paths under ``out_dir`` that are missing, differ from ``files``, or are
    schema files under its folder that no model generates."""
    stale = [
        relative
        for relative, text in files.items()
        if not (out_dir / relative).is_file()
        or (out_dir / relative).read_text(encoding="utf-8") != text
    ]
    folders = {Path(relative).parent for relative in files}
    for folder in sorted(folders):
        for path in sorted((out_dir / folder).glob("*.schema.json")):
            relative = path.relative_to(out_dir).as_posix()
            if relative not in files:
                stale.append(relative)
    return stale
