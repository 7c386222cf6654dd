"""The ``accord settle`` file format: one case as a pydantic model, and its JSON Schema.

A settle file is one case object, a JSON array of case objects, or JSON Lines (one case object
per line; streamed, so any number of cases settles in bounded memory). ``accord schema settle``
prints :func:`settle_file_schema`; ``accord settle`` validates every case with
:class:`SettleCase` — the model the schema is generated from — before it settles any.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic import ValidationError as PydanticValidationError

from accord.cases.settle import MAX_LENGTHS, MIN_POSITIONS, SettleRequest
from accord.conflicts import Position
from accord.errors import ValidationError
from accord.printable import MAX_ID_LENGTH, PRINTABLE_RULE, PrintableText

SCHEMA_ID = "urn:accord:schema:settle-file:v1"


class SettleCase(BaseModel):
    """One case: parallel agents' positions on one subject."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, title="Settle case")

    subject: Annotated[
        PrintableText,
        Field(
            min_length=1,
            max_length=MAX_LENGTHS["subject"],
            description=f"What the agents disagree about; {PRINTABLE_RULE}.",
        ),
    ]
    positions: Annotated[
        list[Position],
        Field(
            min_length=MIN_POSITIONS,
            description="Each agent's position, one per agent (at most limits.positions_per_case,"
            " default 100; each output at most limits.output_bytes of canonical JSON, default"
            " 16 MiB).",
        ),
    ]
    task_type: Annotated[
        PrintableText,
        Field(
            min_length=1,
            max_length=MAX_LENGTHS["task_type"],
            description="Selects detection settings and policy (settle.task_types).",
        ),
    ] = "default"
    session_id: Annotated[
        PrintableText | None,
        Field(
            min_length=1,
            max_length=MAX_LENGTHS["session_id"],
            description="Groups cases for `accord session close`.",
        ),
    ] = None

    def request(self) -> SettleRequest:
        return SettleRequest(self.subject, self.positions, self.task_type, self.session_id)


_CASE = TypeAdapter(SettleCase)
_RULES = {"model_type": "a case must be a JSON object with subject and positions"}


def settle_case(data: Any, where: str) -> SettleCase:
    """``data`` (parsed JSON) as a case; ``ValidationError`` naming ``where`` and the field."""
    positions = data.get("positions") if isinstance(data, dict) else None
    if isinstance(positions, list):  # one by one, so an error names the position's index
        data = {**data, "positions": [_position(p, i, where) for i, p in enumerate(positions)]}
    try:
        return _CASE.validate_python(data)
    except PydanticValidationError as exc:
        errors = exc.errors()
        # an unknown or missing key says more than what follows from it
        first = min(errors, key=lambda e: e["type"] not in ("extra_forbidden", "missing"))
        field = ".".join(str(part) for part in first["loc"]) or "(the case)"
        rule = _RULES.get(first["type"], first["msg"]) if not first["loc"] else first["msg"]
        raise ValidationError(
            f"{where}: {field}: {rule}", code="settle.bad_request", field=field, rule=rule
        ) from None


def _position(data: Any, index: int, where: str) -> Position:
    try:
        return Position.model_validate(data)
    except ValidationError as exc:
        field = f"positions.{index}.{exc.context.get('field', '')}".rstrip(".")
        raise ValidationError(
            f"{where}: {field}: {exc.context.get('rule', exc.message)}",
            code=exc.code,
            **{**exc.context, "field": field},
        ) from None


def settle_file_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a settle file, generated from :class:`SettleCase`."""
    case = _CASE.json_schema(ref_template="#/$defs/{model}")
    defs = case.pop("$defs", {})
    position = defs["Position"]["properties"]
    position["agent"].update(
        minLength=1, maxLength=MAX_ID_LENGTH, description=f"The agent's id; {PRINTABLE_RULE}."
    )
    position["confidence"]["anyOf"][0].update(minimum=0, maximum=1)
    defs["SettleCase"] = case
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "accord settle file",
        "description": "One case, a JSON array of cases, or JSON Lines: one case per line "
        "(validate each line against #/$defs/SettleCase).",
        "oneOf": [
            {"$ref": "#/$defs/SettleCase"},
            {"type": "array", "items": {"$ref": "#/$defs/SettleCase"}},
        ],
        "$defs": defs,
    }
