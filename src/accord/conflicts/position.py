"""An agent's position: its output, how sure it is, and why; and checks over a set of them.

Every rule broken while building a :class:`Position` raises ``accord.errors.ValidationError``
with a ``conflicts.*`` code and a context naming ``field`` (a path such as
``output.lines[2].price``), ``position`` (the agent, when known) and ``rule``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    PlainValidator,
    ValidationInfo,
    model_validator,
)

from accord.conflicts._serialize_natively import SERIALIZE_NATIVELY
from accord.conflicts.evidence import Evidence
from accord.conflicts.text import normalize_text
from accord.errors import ValidationError
from accord.printable import MAX_ID_LENGTH, printable_problem
from accord.values import plain_json

MAX_LABEL_LENGTH = 64
"""Strings up to this length (with single spaces only) are labels; longer ones are text."""

Output = bool | int | float | str | Mapping[str, JsonValue]
"""What an agent answered: a boolean, a number, a string, or a (nested) mapping."""


class OutputKind(StrEnum):
    """How outputs are compared. ``label`` and ``text`` are both strings (one family)."""

    BOOLEAN = "boolean"
    NUMBER = "number"
    LABEL = "label"
    TEXT = "text"
    STRUCTURED = "structured"


_FIELDS = frozenset(
    {
        "agent",
        "output",
        "confidence",
        "field_confidence",
        "evidence",
        "sources",
        "assumptions",
        "reasoning",
        "task_subset",
    }
)


def _error(code: str, field: str, rule: str, info: ValidationInfo, **extra: Any) -> ValidationError:
    agent = info.data.get("agent")
    where = f"position {agent!r}: " if agent is not None else ""
    return ValidationError(
        f"{where}{field}: {rule}", code=code, field=field, position=agent, rule=rule, **extra
    )


MAX_AGENT_LENGTH = MAX_ID_LENGTH
"""Agent ids are stored and signed as given; longer ones are refused at the boundary."""


def _agent(value: object, info: ValidationInfo) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _error("conflicts.invalid_agent", "agent", "agent is a non-empty string", info)
    if len(value) > MAX_AGENT_LENGTH:
        raise _error(
            "conflicts.invalid_agent",
            "agent",
            f"agent ids are at most {MAX_AGENT_LENGTH} characters",
            info,
        )
    problem = printable_problem(value)
    if problem is not None:
        raise _error("conflicts.invalid_agent", "agent", problem, info)
    return value


def _output(value: object, info: ValidationInfo) -> Output:
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _error("conflicts.non_finite", "output", "numbers must be finite", info)
        return value
    if isinstance(value, Mapping):
        agent = info.data.get("agent")
        copy, _ = plain_json(
            value, "output", code_prefix="conflicts", dotted_keys=False, context={"position": agent}
        )
        result: dict[str, JsonValue] = copy
        return result
    raise _error(
        "conflicts.invalid_output",
        "output",
        "output is a boolean, a number, a string or a mapping",
        info,
        value_type=type(value).__name__,
    )


def _fraction(value: object, field: str, info: ValidationInfo) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _error("conflicts.invalid_confidence", field, "confidence is a number", info)
    if not math.isfinite(value):
        raise _error("conflicts.non_finite", field, "confidence must be finite", info)
    if not 0 <= value <= 1:
        raise _error("conflicts.confidence_range", field, "confidence lies between 0 and 1", info)
    return float(value)


def _confidence(value: object, info: ValidationInfo) -> float | None:
    return None if value is None else _fraction(value, "confidence", info)


def _field_confidence(value: object, info: ValidationInfo) -> dict[str, float]:
    if not isinstance(value, Mapping):
        raise _error(
            "conflicts.invalid_confidence",
            "field_confidence",
            "field_confidence maps dotted field paths to numbers",
            info,
        )
    result: dict[str, float] = {}
    for path, number in value.items():
        field = f"field_confidence[{path!r}]"
        if not isinstance(path, str) or not all(path.split(".")):
            raise _error("conflicts.invalid_field_name", field, "keys are dotted field paths", info)
        result[path] = _fraction(number, field, info)
    return result


def _strings(value: object, info: ValidationInfo) -> tuple[str, ...]:
    field = info.field_name or "?"
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise _error("conflicts.invalid_strings", field, "a list of strings", info)
    for index, item in enumerate(value):
        if not isinstance(item, str) or (field == "task_subset" and not item):
            rule = "non-empty strings" if field == "task_subset" else "strings"
            raise _error("conflicts.invalid_strings", f"{field}[{index}]", rule, info)
    return tuple(value)


def _evidence(value: object, info: ValidationInfo) -> tuple[Evidence, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise _error("conflicts.invalid_evidence", "evidence", "a list of evidence", info)
    items: list[Evidence] = []
    for index, item in enumerate(value):
        if isinstance(item, Evidence):
            items.append(item)
            continue
        try:
            items.append(Evidence.model_validate(item))
        except ValidationError as exc:
            context = dict(exc.context)
            field = f"evidence[{index}].{context.pop('field', '')}".rstrip(".")
            rule = str(context.pop("rule", exc.message))
            raise _error(exc.code, field, rule, info, **context) from None
    return tuple(items)


def _reasoning(value: object, info: ValidationInfo) -> str | None:
    if value is not None and not isinstance(value, str):
        raise _error("conflicts.invalid_reasoning", "reasoning", "reasoning is a string", info)
    return value


class Position(BaseModel):
    """One agent's answer to the question in dispute, with its confidence and its case.

    ``confidence`` and the values of ``field_confidence`` (keyed by dotted field paths of a
    structured output) lie in [0, 1]. ``task_subset`` optionally names the parts of the task
    this agent worked on; agents with disjoint subsets are complementary, not in conflict.
    Structured outputs are copied into plain dicts and lists on entry.
    """

    # Tuple and dict fields use BeforeValidator: a PlainValidator there makes pydantic warn
    # when dumping to JSON (pydantic/pydantic#10402); the re-check of our result is cheap.
    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: Annotated[str, SERIALIZE_NATIVELY, PlainValidator(_agent, json_schema_input_type=str)]
    output: Annotated[
        Output, SERIALIZE_NATIVELY, PlainValidator(_output, json_schema_input_type=Output)
    ]
    confidence: Annotated[
        float | None,
        SERIALIZE_NATIVELY,
        PlainValidator(_confidence, json_schema_input_type=float | None),
    ] = None
    field_confidence: Annotated[dict[str, float], BeforeValidator(_field_confidence)] = Field(
        default_factory=dict
    )
    evidence: Annotated[tuple[Evidence, ...], BeforeValidator(_evidence)] = ()
    sources: Annotated[tuple[str, ...], BeforeValidator(_strings)] = ()
    assumptions: Annotated[tuple[str, ...], BeforeValidator(_strings)] = ()
    reasoning: Annotated[
        str | None,
        SERIALIZE_NATIVELY,
        PlainValidator(_reasoning, json_schema_input_type=str | None),
    ] = None
    task_subset: Annotated[tuple[str, ...], BeforeValidator(_strings)] = ()

    @model_validator(mode="before")
    @classmethod
    def _known_fields(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            raise ValidationError(
                "a position is a mapping of its fields",
                code="conflicts.invalid_position",
                field="position",
                position=None,
                rule="give a Position or a mapping with agent and output",
            )
        for key in data:
            if key not in _FIELDS:
                raise ValidationError(
                    f"unknown position field {key!r}",
                    code="conflicts.unknown_field",
                    field=str(key),
                    position=data.get("agent"),
                    rule=f"position fields are: {', '.join(sorted(_FIELDS))}",
                )
        for key in ("agent", "output"):
            if key not in data:
                raise ValidationError(
                    f"a position needs {key!r}",
                    code="conflicts.missing_field",
                    field=key,
                    position=data.get("agent"),
                    rule="agent and output are required",
                )
        return data


def is_label(text: str, label_values: frozenset[str] = frozenset()) -> bool:
    """True for short one-line strings (≤ 64 chars, single spaces) or normalized known labels.

    ``label_values`` must already be normalized with :func:`normalize_text`. Surrounding
    whitespace (say a trailing newline) does not matter.
    """
    core = text.strip()
    if not core or (len(core) <= MAX_LABEL_LENGTH and core.split(" ") == core.split()):
        return True
    return bool(label_values) and normalize_text(text) in label_values


def output_kind(position: Position, label_values: frozenset[str] | None = None) -> OutputKind:
    """How ``position``'s output is compared; a bool is boolean, never a number."""
    output = position.output
    if isinstance(output, bool):
        return OutputKind.BOOLEAN
    if isinstance(output, int | float):
        return OutputKind.NUMBER
    if isinstance(output, str):
        labels = frozenset(map(normalize_text, label_values or ()))
        return OutputKind.LABEL if is_label(output, labels) else OutputKind.TEXT
    return OutputKind.STRUCTURED


def _family(output: object) -> OutputKind:
    """The comparison family: label stands for every string."""
    if isinstance(output, bool):
        return OutputKind.BOOLEAN
    if isinstance(output, int | float):
        return OutputKind.NUMBER
    if isinstance(output, str):
        return OutputKind.LABEL
    return OutputKind.STRUCTURED


def validate_positions(positions: Sequence[Position]) -> tuple[Position, ...]:
    """``positions`` as a tuple (order kept) once they are comparable.

    Refuses an empty list (``conflicts.no_positions``), an agent appearing twice
    (``conflicts.duplicate_agent``, with both indexes) and outputs of different kinds
    (``conflicts.mixed_output_types``, naming the index, agent and both kinds). Labels and
    texts are both strings and mix freely.
    """
    items = tuple(positions)
    if not items:
        raise ValidationError(
            "no positions to compare",
            code="conflicts.no_positions",
            field="positions",
            position=None,
            rule="at least one position is required",
        )
    seen: dict[str, int] = {}
    first_family = OutputKind.BOOLEAN
    for index, position in enumerate(items):
        if not isinstance(position, Position):
            raise ValidationError(
                f"positions[{index}] is not a Position",
                code="conflicts.invalid_position",
                field="positions",
                position=index,
                rule="every item is a Position",
            )
        agent = position.agent
        first = seen.setdefault(agent, index)
        if first != index:
            raise ValidationError(
                f"agent {agent!r} appears at positions {first} and {index}",
                code="conflicts.duplicate_agent",
                field="agent",
                position=index,
                agent=agent,
                first_index=first,
                rule="each agent takes one position",
            )
        family = _family(position.output)
        if index == 0:
            first_family = family
        elif family is not first_family:
            expected = output_kind(items[0])
            found = output_kind(position)
            raise ValidationError(
                f"position {index} ({agent!r}) answers with a {found} output, "
                f"but position 0 ({items[0].agent!r}) with a {expected} output",
                code="conflicts.mixed_output_types",
                field="output",
                position=index,
                agent=agent,
                expected_kind=expected,
                found_kind=found,
                rule="all positions answer with outputs of one kind",
            )
    return items
