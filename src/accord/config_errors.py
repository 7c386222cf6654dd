"""Turning configuration problems into ``ConfigError``: file, key path and rule.

Every YAML boundary (org chart, detection settings, classification table, policies, the
top-level config) reports a bad value the same way: ``file: key.path: rule``, with ``file``,
``key_path`` and ``rule`` in the error's context and a stable ``config.*`` code
(``config.invalid`` when no more precise one applies). Readers of a YAML document or section
subclass :class:`YamlReader`; one pydantic error becomes a rule through :func:`pydantic_rule`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pydantic import ValidationError as PydanticValidationError
from pydantic_core import ErrorDetails

from accord.errors import ConfigError, ValidationError

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


INVALID = "config.invalid"
"""The code of a value that breaks a rule no more precise ``config.*`` code names."""


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
    """A pydantic error as a one-line rule: ``unknown key``, ``required key is missing``, or
    pydantic's message phrased as a rule (``must be greater than 0``: no ``Value error,``
    prefix, no Python class names)."""
    kind = error["type"]
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "required key is missing"
    message = str(error.get("msg") or "invalid value").removeprefix("Value error, ")
    message = re.sub(r" or instance of \w+", "", message)  # class names mean nothing in YAML
    message = message.replace("Input should be", "must be").replace("String should", "must")
    return message[:1].lower() + message[1:]


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
        return config_error(source, path, pydantic_rule(error), code="config.missing_key")
    if kind == "extra_forbidden":
        if allowed_keys is not None:
            return unknown_key(source, path, allowed_keys(loc[:-1]))
        return config_error(source, path, pydantic_rule(error), code="config.unknown_key")
    if kind in _EXPECTED:
        return wrong_type(source, path, _EXPECTED[kind], error["input"])
    return config_error(source, path, pydantic_rule(error), code=INVALID)


class YamlReader:
    """The base of every reader of a parsed YAML document or section: each problem is a
    ``ConfigError`` at its key path in ``source`` (``prefix``, say ``org``, goes before every
    path when the section sits in a larger file). Subclasses walk their document with these
    helpers; ``where`` is the key path below the prefix, as parts."""

    def __init__(self, source: str, prefix: str = "") -> None:
        self._source = source
        self._prefix = prefix

    def _mapping(
        self,
        value: Any,
        where: Sequence[PathPart],
        allowed: Sequence[str],
        required: Sequence[str] = (),
    ) -> Mapping[str, Any]:
        """``value`` when it is a mapping with only ``allowed`` keys and every ``required`` one."""
        if not isinstance(value, Mapping):
            raise self._wrong_type(where, "a mapping", value)
        for key in value:
            if key not in allowed:
                raise unknown_key(self._source, self._path((*where, str(key))), allowed)
        for key in required:
            if key not in value:
                raise self._error(
                    (*where, key), "required key is missing", code="config.missing_key"
                )
        return value

    def _list(self, value: Any, where: Sequence[PathPart]) -> list[Any]:
        """``value`` when it is a list."""
        if not isinstance(value, list):
            raise self._wrong_type(where, "a list", value)
        return value

    def _wrong_type(self, where: Sequence[PathPart], expected: str, value: Any) -> ConfigError:
        """``config.wrong_type``: ``expected a list, got a string``."""
        return wrong_type(self._source, self._path(where), expected, value)

    def _error(
        self, where: Sequence[PathPart], rule: str, *, code: str = INVALID, **extra: Any
    ) -> ConfigError:
        """A rule broken at ``where`` (``config.invalid`` unless a more precise code applies)."""
        return config_error(self._source, self._path(where), rule, code=code, **extra)

    def _from_pydantic(
        self,
        exc: PydanticValidationError,
        where: Sequence[PathPart] = (),
        rename: Mapping[str, str] | None = None,
    ) -> ConfigError:
        """The first error of a model validated from the entry at ``where``; ``rename`` maps
        the model's field names to the keys the user wrote."""
        first = exc.errors(include_url=False)[0]
        return from_pydantic(
            first, source=self._source, prefix=self._prefix, base=where, rename=rename
        )

    def _broken_item_rule(
        self, error: ValidationError, keys: Mapping[str, Mapping[str, str]]
    ) -> ConfigError:
        """A domain rule broken by one item of a list (the error's context names its
        ``collection``, ``index``, ``field`` and ``rule``), at that item's key path;
        ``keys[collection]`` maps field names to the keys the user wrote."""
        context = dict(error.context)
        collection = context.pop("collection")
        index = context.pop("index")
        field = context.pop("field")
        rule = context.pop("rule")
        yaml_key = keys.get(collection, {}).get(field, field)
        return self._error((collection, index, yaml_key), rule, code=error.code, **context)

    def _path(self, where: Sequence[PathPart]) -> str:
        return key_path(self._prefix, where)
