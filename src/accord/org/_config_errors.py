"""Turning problems into ``ConfigError``: key paths, pydantic errors, org chart rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic_core import ErrorDetails

from accord.errors import ConfigError, ValidationError

PathPart = str | int

_EXPECTED = {
    "string_type": "a string",
    "int_type": "an integer",
    "bool_type": "a boolean",
    "float_type": "a number",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
}


def key_path(prefix: str, parts: Sequence[PathPart]) -> str:
    """``("agents", 3, "manager")`` under prefix ``org`` reads ``org.agents[3].manager``."""
    text = prefix
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def describe(value: object) -> str:
    """A YAML-flavoured name for a value's type: ``a string``, ``a list``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    for kind, name in (
        (int, "an integer"),
        (float, "a number"),
        (str, "a string"),
        (list, "a list"),
        (tuple, "a list"),
        (Mapping, "a mapping"),
    ):
        if isinstance(value, kind):
            return name
    return f"a {type(value).__name__}"


def config_error(source: str, path: str, rule: str, *, code: str, **extra: Any) -> ConfigError:
    """A ``ConfigError`` reading ``file: key.path: rule`` with those three in its context."""
    message = f"{source}: {path}: {rule}" if path else f"{source}: {rule}"
    return ConfigError(message, code=code, file=source, key_path=path, rule=rule, **extra)


def from_pydantic(
    error: ErrorDetails,
    *,
    source: str,
    prefix: str,
    base: Sequence[PathPart],
    keys: Mapping[str, str],
) -> ConfigError:
    """The first pydantic error of an entry at ``base``; ``keys`` maps field names to YAML keys."""
    loc = error["loc"]
    head = [keys.get(str(part), part) for part in loc[:1]]
    path = key_path(prefix, [*base, *head, *loc[1:]])
    kind = error["type"]
    if kind == "missing":
        return config_error(source, path, "required key is missing", code="config.missing_key")
    if kind in _EXPECTED:
        rule = f"expected {_EXPECTED[kind]}, got {describe(error['input'])}"
        return config_error(source, path, rule, code="config.wrong_type")
    message = error["msg"].removeprefix("Value error, ")
    message = message.replace("Input should be", "must be").replace("String should", "must")
    rule = message[:1].lower() + message[1:]
    return config_error(source, path, rule, code="config.invalid_value")


def from_chart(
    error: ValidationError,
    *,
    source: str,
    prefix: str,
    keys: Mapping[str, Mapping[str, str]],
) -> ConfigError:
    """An org chart rule broken by item ``index`` of ``collection``, at that item's key path."""
    context = dict(error.context)
    collection = context.pop("collection")
    index = context.pop("index")
    field = context.pop("field")
    rule = context.pop("rule")
    yaml_key = keys.get(collection, {}).get(field, field)
    path = key_path(prefix, [collection, index, yaml_key])
    return config_error(source, path, rule, code=error.code, **context)
