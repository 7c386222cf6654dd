"""Evidence an agent offers for its position, content-addressed on entry (DCP-07 R5, R33).

``content_hash`` is always computed from ``content``; a supplied hash that does not match is
refused (``conflicts.evidence_hash_mismatch``), so evidence whose content was changed after
hashing cannot enter.

Hashing rule (``sha256:<hex>`` either way):

* float-free content: :func:`accord.crypto.content_hash`, i.e. SHA-256 over the dcp-jcs-v1
  canonical bytes, identical to what every DCP SDK computes;
* content holding a float (canonical JSON refuses floats): SHA-256 over the UTF-8 JSON text
  with keys sorted, compact separators, no ASCII escaping, and each float written as Python's
  shortest round-trip ``repr`` (``0.1``, ``1e-07``, ``1.0``). So ``1`` and ``1.0`` hash
  differently: the hash pins the value exactly as the agent gave it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    JsonValue,
    PlainValidator,
    ValidationInfo,
    model_validator,
)

from accord.conflicts._serialize_natively import SERIALIZE_NATIVELY
from accord.crypto import content_hash as canonical_content_hash
from accord.crypto import sha256_prefixed
from accord.errors import CanonicalizationError, ValidationError
from accord.values import plain_json

_FIELDS = ("kind", "reference", "description", "content", "content_hash")


def _text(value: object, info: ValidationInfo) -> str:
    if not isinstance(value, str):
        raise ValidationError(
            f"evidence {info.field_name} must be a string",
            code="conflicts.invalid_evidence",
            field=info.field_name,
            rule="kind, reference, description and content_hash are strings",
        )
    return value


def _checked_content(value: object) -> Any:
    return value  # already checked and copied by Evidence._hash_content


_Text = Annotated[str, SERIALIZE_NATIVELY, PlainValidator(_text, json_schema_input_type=str)]


class Evidence(BaseModel):
    """One piece of evidence: what kind, where from, what it says, and its content hash."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: _Text
    reference: _Text = ""
    description: _Text = ""
    content: Annotated[
        JsonValue,
        SERIALIZE_NATIVELY,
        PlainValidator(_checked_content, json_schema_input_type=JsonValue),
    ] = None
    content_hash: _Text = ""
    """Always computed from ``content``; a supplied value must match it."""

    @classmethod
    def of(cls, kind: str, content: object, reference: str = "", description: str = "") -> Evidence:
        """Evidence of ``kind`` holding ``content``, its hash computed."""
        return cls.model_validate(
            {"kind": kind, "content": content, "reference": reference, "description": description}
        )

    @model_validator(mode="before")
    @classmethod
    def _hash_content(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            raise ValidationError(
                "evidence must be a mapping of its fields",
                code="conflicts.invalid_evidence",
                field="evidence",
                rule="evidence is given as a mapping or an Evidence",
            )
        unknown = [key for key in data if key not in _FIELDS]
        if unknown:
            raise ValidationError(
                f"unknown evidence field {unknown[0]!r}",
                code="conflicts.unknown_field",
                field=str(unknown[0]),
                rule=f"evidence fields are: {', '.join(_FIELDS)}",
            )
        kind = data.get("kind")
        if not isinstance(kind, str) or not kind:
            raise ValidationError(
                "evidence needs a non-empty kind",
                code="conflicts.invalid_evidence",
                field="kind",
                rule="kind is a non-empty string",
            )
        content, saw_float = plain_json(data.get("content"), "content", code_prefix="conflicts")
        digest = _digest(content, saw_float)
        supplied = data.get("content_hash")
        if supplied not in (None, "") and supplied != digest:
            raise ValidationError(
                "evidence content does not match its content_hash",
                code="conflicts.evidence_hash_mismatch",
                field="content_hash",
                rule="content_hash must equal the hash computed from content",
                supplied=supplied,
                computed=digest,
            )
        return {**data, "content": content, "content_hash": digest}


def _digest(content: Any, saw_float: bool) -> str:
    try:
        if not saw_float:
            return canonical_content_hash(content)
        text = json.dumps(
            content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
        return sha256_prefixed(text.encode("utf-8"))
    except CanonicalizationError as exc:
        path = str(exc.context.get("path", "$"))
        raise _content_error(f"content{path[1:]}", str(exc.context.get("rule", exc))) from None
    except UnicodeEncodeError:
        raise _content_error(
            "content", "strings must be valid Unicode (no lone surrogates)"
        ) from None


def _content_error(field: str, rule: str) -> ValidationError:
    return ValidationError(
        f"{field}: {rule}", code="conflicts.invalid_evidence_content", field=field, rule=rule
    )
