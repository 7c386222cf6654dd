"""Turning configuration problems into ``ConfigError``: file, key path and rule.

Every YAML boundary (org chart, detection settings, classification table, policies, the
top-level config) reports a bad value the same way: ``file: key.path: rule``, with ``file``,
``key_path`` and ``rule`` in the error's context and a stable ``config.*`` code.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pydantic_core import ErrorDetails

from accord.errors import ConfigError

PathPart = str | int

_EXPECTED = {
    "string_type": "a string",
    "int_type": "an integer",
    "bool_type": "a boolean",
    "float_type": "a number",
    "finite_number": "a finite number",
    "list_type": "a list",
    "tuple_type": "a list",
    "set_type": "a list",
    "frozen_set_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}


def key_path(prefix: str, parts: Sequence[PathPart]) -> str:
    """``("agents", 3, "manager")`` under ``org`` reads ``org.agents[3].manager``; a key with
    a dot (or an empty one) is quoted: ``detection.per_field["a.b"].x``."""
    text = prefix
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif "." in part or not part:
            text += f'["{part}"]'
        else:
            text += f".{part}" if text else part
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


def unknown_key(source: str, path: str, allowed: Iterable[str]) -> ConfigError:
    """``config.unknown_key`` listing the keys that are allowed there."""
    rule = f"unknown key; allowed keys: {', '.join(sorted(allowed))}"
    return config_error(source, path, rule, code="config.unknown_key")


def wrong_type(source: str, path: str, expected: str, value: object) -> ConfigError:
    """``config.wrong_type``: ``expected a list, got a string``."""
    rule = f"expected {expected}, got {describe(value)}"
    return config_error(source, path, rule, code="config.wrong_type")


def pydantic_rule(error: ErrorDetails) -> str:
    """pydantic's message as a rule: ``must be greater than 0`` (no "Value error," prefix)."""
    message = error["msg"].removeprefix("Value error, ")
    message = message.replace("Input should be", "must be").replace("String should", "must")
    return message[:1].lower() + message[1:]


def short_rule(error: ErrorDetails) -> str:
    """A one-line rule for a pydantic error: ``unknown key``, ``required key is missing``, or
    pydantic's own message without its ``Value error,`` prefix."""
    kind = error["type"]
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "required key is missing"
    message = str(error.get("msg") or "invalid value").removeprefix("Value error, ")
    message = re.sub(
        r" or instance of \w+", "", message
    )  # pydantic's class names mean nothing in YAML
    return message.replace("Input should be", "must be")


def from_pydantic(
    error: ErrorDetails,
    *,
    source: str,
    prefix: str,
    base: Sequence[PathPart] = (),
    rename: Mapping[str, str] | None = None,
    allowed_keys: Callable[[tuple[PathPart, ...]], Iterable[str]] | None = None,
) -> ConfigError:
    """The ``ConfigError`` for one pydantic error of the entry at ``base``.

    ``rename`` maps a model's field names to the YAML keys the user wrote (first location
    part only); ``allowed_keys(parent_loc)`` lists the valid keys for an unknown-key error.
    """
    loc = tuple(error["loc"])
    if rename and loc:
        loc = (rename.get(str(loc[0]), loc[0]), *loc[1:])
    path = key_path(prefix, [*base, *loc])
    kind = error["type"]
    if kind == "missing":
        return config_error(source, path, "required key is missing", code="config.missing_key")
    if kind == "extra_forbidden" and allowed_keys is not None:
        return unknown_key(source, path, allowed_keys(loc[:-1]))
    if kind in _EXPECTED:
        return wrong_type(source, path, _EXPECTED[kind], error["input"])
    return config_error(source, path, pydantic_rule(error), code="config.invalid_value")
