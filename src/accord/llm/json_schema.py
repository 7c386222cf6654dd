"""A small JSON Schema validator for the subset model answers use.

Supported keywords: ``type`` (object, string, number, integer, boolean, array, null),
``properties``, ``required``, ``additionalProperties: false``, ``items``, ``enum``,
``minimum``, ``maximum``; ``title`` and ``description`` are annotations. A schema using
any other keyword is refused up front, so no constraint is ever silently unenforced.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

SUPPORTED_KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "minimum",
        "maximum",
        "title",
        "description",
    }
)
_TYPES = frozenset({"object", "string", "number", "integer", "boolean", "array", "null"})


def check_schema(schema: Mapping[str, Any], path: str = "$") -> None:
    """Raise ``ValueError`` naming the path when ``schema`` leaves the supported subset."""
    unknown = sorted(set(schema) - SUPPORTED_KEYWORDS)
    if unknown:
        raise ValueError(f"{path}: unsupported JSON Schema keyword(s) {unknown}")
    kind = schema.get("type")
    if kind is not None and kind not in _TYPES:
        raise ValueError(f"{path}: unsupported type {kind!r}")
    if schema.get("additionalProperties", False) is not False:
        raise ValueError(f"{path}: additionalProperties may only be false")
    enum = schema.get("enum")
    if enum is not None and (not isinstance(enum, list) or not enum):
        raise ValueError(f"{path}: enum must be a non-empty list")
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(name, str) for name in required):
        raise ValueError(f"{path}: required must be a list of names")
    for bound in ("minimum", "maximum"):
        if bound in schema and not _is_number(schema[bound]):
            raise ValueError(f"{path}: {bound} must be a number")
    properties = schema.get("properties", {})
    if not isinstance(properties, Mapping):
        raise ValueError(f"{path}: properties must be a mapping")
    for name, sub in properties.items():
        _check_sub(sub, f"{path}.{name}")
    if "items" in schema:
        _check_sub(schema["items"], f"{path}[]")


class Violation(NamedTuple):
    """Where an answer leaves its schema (``$.verdict.confidence``), how, and the bad value.

    ``value`` is ``None`` when the problem is a missing or unexpected property.
    """

    path: str
    problem: str
    value: Any = None


def first_violation(value: Any, schema: Mapping[str, Any]) -> Violation | None:
    """The first place ``value`` breaks ``schema``, or ``None`` when it conforms."""
    return next(_violations(value, schema, "$"), None)


def _violations(value: Any, schema: Mapping[str, Any], path: str) -> Iterator[Violation]:
    kind = schema.get("type")
    if kind is not None and not _has_type(value, kind):
        yield Violation(path, f"expected {kind}, got {_type_name(value)}", value)
    else:
        yield from _value_violations(value, schema, path)


def _value_violations(value: Any, schema: Mapping[str, Any], path: str) -> Iterator[Violation]:
    if "enum" in schema and not any(_same(value, option) for option in schema["enum"]):
        yield Violation(path, f"{_short(value)} is not one of {schema['enum']!r}", value)
    if _is_number(value):
        if "minimum" in schema and value < schema["minimum"]:
            yield Violation(
                path, f"{_short(value)} is below the minimum {schema['minimum']!r}", value
            )
        if "maximum" in schema and value > schema["maximum"]:
            yield Violation(
                path, f"{_short(value)} is above the maximum {schema['maximum']!r}", value
            )
    if isinstance(value, dict):
        yield from _object_violations(value, schema, path)
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            yield from _violations(item, schema["items"], f"{path}[{index}]")


def _object_violations(
    value: dict[str, Any], schema: Mapping[str, Any], path: str
) -> Iterator[Violation]:
    properties: Mapping[str, Any] = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in value:
            yield Violation(f"{path}.{name}", "is required but missing")
    if schema.get("additionalProperties", True) is False:
        for name in sorted(set(value) - set(properties)):
            yield Violation(f"{path}.{name}", "is not an allowed property")
    for name, sub in properties.items():
        if name in value:
            yield from _violations(value[name], sub, f"{path}.{name}")


def _check_sub(sub: Any, path: str) -> None:
    if not isinstance(sub, Mapping):
        raise ValueError(f"{path}: a schema must be a mapping")
    check_schema(sub, path)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _has_type(value: Any, kind: str) -> bool:
    checks = {
        "object": lambda: isinstance(value, dict),
        "string": lambda: isinstance(value, str),
        "number": lambda: _is_number(value),
        "integer": lambda: _is_number(value) and float(value).is_integer(),
        "boolean": lambda: isinstance(value, bool),
        "array": lambda: isinstance(value, list),
        "null": lambda: value is None,
    }
    return checks[kind]()


def _same(value: Any, option: Any) -> bool:
    """JSON equality: ``True`` is not ``1``."""
    return isinstance(value, bool) == isinstance(option, bool) and bool(value == option)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if _is_number(value):
        return "number"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    return "string" if isinstance(value, str) else type(value).__name__


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
