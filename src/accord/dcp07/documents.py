"""A record as the JSON document that is hashed, signed and chained, and back (R40).

Reading a document is a boundary: any problem is one ``ValidationError`` naming the field
path and the requirement of the record's shape.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from accord.crypto import canonical_bytes
from accord.dcp07.dispute_record import DisputeRecord
from accord.dcp07.objection_record import ObjectionRecord
from accord.dcp07.refusal import from_pydantic, refused
from accord.dcp07.resolution_record import ResolutionRecord

DcpRecord = DisputeRecord | ResolutionRecord | ObjectionRecord
RecordT = TypeVar("RecordT", bound=BaseModel)

SHAPE_REQUIREMENT: Mapping[type[BaseModel], str] = {
    DisputeRecord: "R5",
    ResolutionRecord: "R19",
    ObjectionRecord: "R27",
}
"""The requirement that states each record's shape."""

_BY_RECORD_TYPE: Mapping[str, type[DcpRecord]] = {
    "dispute_record": DisputeRecord,
    "arbitration_resolution": ResolutionRecord,
    "objection_record": ObjectionRecord,
}


def record_document(record: BaseModel) -> dict[str, Any]:
    """The record as plain JSON values (enums as strings, tuples as lists)."""
    return record.model_dump(mode="json")


def record_canonical_bytes(record: BaseModel) -> bytes:
    """The dcp-jcs-v1 bytes of the whole record, signatures included: what the next ledger
    entry's ``prev_hash`` is taken over."""
    return canonical_bytes(record_document(record))


def read_record(model: type[RecordT], data: Mapping[str, Any] | str | bytes) -> RecordT:
    """``data`` (a mapping or JSON text) as a ``model``; refused naming the first bad field."""
    try:
        if isinstance(data, str | bytes):
            return model.model_validate_json(data)
        return model.model_validate(data)
    except PydanticValidationError as exc:
        raise from_pydantic(
            exc, requirement=SHAPE_REQUIREMENT[model], record=model.__name__
        ) from None


def read_any_record(data: Mapping[str, Any] | str | bytes) -> DcpRecord:
    """A dispute, resolution or objection record, chosen by its ``record_type``."""
    try:
        document: object = json.loads(data) if isinstance(data, str | bytes) else data
    except ValueError as exc:
        raise refused(
            "R40", "$", f"a record is one JSON object ({exc})", code="dcp.record_invalid"
        ) from None
    kind = document.get("record_type") if isinstance(document, Mapping) else None
    model = _BY_RECORD_TYPE.get(kind) if isinstance(kind, str) else None
    if model is None or not isinstance(document, Mapping):
        raise refused(
            "R40",
            "record_type",
            f"a DCP-07 record is one of {sorted(_BY_RECORD_TYPE)}",
            code="dcp.record_type_unknown",
            found=repr(kind),
        )
    return read_record(model, document)
