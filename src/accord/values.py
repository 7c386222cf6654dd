"""The shared value helpers, one copy each: the ``$decimal`` float encoding of signed records,
dotted paths over nested mappings, and the checked copy of a plain JSON value.

Signed records are canonical JSON (dcp-jcs-v1: integers only), so a float is carried as
``{"$decimal": repr}`` — Python's shortest repr that round-trips (``0.1`` → ``"0.1"``) — and
read back exactly. A mapping whose only key is ``"$decimal"`` with a string value always means
a float. These bytes are part of the signed format: they never change.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import Enum
from typing import Any, Final, TypeVar

from pydantic import BaseModel, JsonValue

from accord.errors import ValidationError

DECIMAL: Final = "$decimal"
"""The key of a float's encoding: ``{"$decimal": "1200.5"}``."""

MAX_DEPTH: Final = 64
"""How deeply lists and mappings may nest in a value :func:`plain_json` accepts."""

V = TypeVar("V")


# --- the $decimal encoding -------------------------------------------------------------------


def signable(value: Any) -> Any:
    """``value`` with every float replaced by ``{"$decimal": repr}`` (recursively; tuples become
    lists and keys strings); ``value`` itself, not a copy, when it holds no float (outputs can
    be large)."""
    return _replaced(value) if _has_float(value) else value


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, Mapping):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_float(v) for v in value)
    return False


def _replaced(value: Any) -> Any:
    if isinstance(value, float):
        return {DECIMAL: repr(value)}
    if isinstance(value, Mapping):
        return {str(k): _replaced(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_replaced(v) for v in value]
    return value


def from_signable(value: JsonValue) -> JsonValue:
    """The inverse of :func:`signable`: ``{"$decimal": "0.1"}`` becomes ``0.1`` again."""
    if isinstance(value, Mapping):
        if len(value) == 1 and isinstance(value.get(DECIMAL), str):
            return float(str(value[DECIMAL]))
        return {key: from_signable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_signable(item) for item in value]
    return value


# --- dotted paths ----------------------------------------------------------------------------


class _Missing(Enum):
    MISSING = "missing"


MISSING: Final = _Missing.MISSING
"""What :func:`value_at` returns where a value has nothing at a path."""


def leaves(value: Mapping[str, Any]) -> dict[str, Any]:
    """Leaf values by dotted path (``total.amount``), in document order; lists and empty
    mappings are leaves."""
    result: dict[str, Any] = {}
    _collect(value, "", result)
    return result


def _collect(mapping: Mapping[str, Any], prefix: str, into: dict[str, Any]) -> None:
    for key, item in mapping.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(item, Mapping) and item:
            _collect(item, path, into)
        else:
            into[path] = item


def value_at(value: Any, path: str) -> Any:
    """The leaf or sub-mapping at dotted ``path`` in nested mappings, or :data:`MISSING`."""
    node = value
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return MISSING
        node = node[part]
    return node


def path_key(path: str) -> tuple[str, ...]:
    """Sort key putting ``a.b`` right after ``a`` and before ``a_b``."""
    return tuple(path.split("."))


def nearest_value(per_path: Mapping[str, V], path: str) -> V | None:
    """The value set for dotted ``path`` or, failing that, for its nearest ancestor."""
    probe = path
    while True:
        found = per_path.get(probe)
        if found is not None:
            return found
        cut = probe.rfind(".")
        if cut < 0:
            return None
        probe = probe[:cut]


def ancestors(path: str) -> list[str]:
    """``a.b.c`` → ``["a", "a.b"]``."""
    parts = path.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts))]


# --- checked plain JSON ----------------------------------------------------------------------


def plain_json(
    value: object,
    path: str,
    *,
    code_prefix: str,
    dotted_keys: bool = True,
    context: Mapping[str, Any] | None = None,
) -> tuple[Any, bool]:
    """``(copy, saw_float)``: a plain ``dict`` / ``list`` copy of the JSON-like ``value`` (so
    later changes to the caller's objects cannot change a frozen model or a hash taken over it),
    and whether it holds any float.

    JSON-like: ``None``, a bool, an int, a finite float, a str, a list or tuple of JSON-like
    values, or a mapping with str keys and JSON-like values, nested at most :data:`MAX_DEPTH`
    levels. Anything else raises ``ValidationError`` naming the offending ``field`` path
    (``output.items[2]``), with code ``<code_prefix>.non_finite``, ``.too_deep``,
    ``.invalid_value_type`` or ``.invalid_field_name``; ``dotted_keys=False`` also refuses
    empty keys and keys containing ``"."``, which would make dotted paths ambiguous.
    ``context`` is added to every error.
    """
    walker = _Walker(code_prefix, dotted_keys, context or {})
    return walker.copy(value, path, 0), walker.saw_float


class _Walker:
    def __init__(self, code_prefix: str, dotted_keys: bool, context: Mapping[str, Any]) -> None:
        self._prefix = code_prefix
        self._dotted_keys = dotted_keys
        self._context = context
        self.saw_float = False

    def copy(self, value: object, path: str, depth: int) -> Any:
        if value is None or isinstance(value, bool | int | str):
            return value
        if depth >= MAX_DEPTH and isinstance(value, Mapping | list | tuple):
            raise self._error("too_deep", path, f"values nest at most {MAX_DEPTH} levels deep")
        if isinstance(value, float):
            if not math.isfinite(value):
                raise self._error("non_finite", path, "numbers must be finite (no NaN or ∞)")
            self.saw_float = True
            return value
        if isinstance(value, Mapping):
            result: dict[str, Any] = {}
            for key, item in value.items():
                self._check_key(key, path)
                result[key] = self.copy(item, f"{path}.{key}", depth + 1)
            return result
        if isinstance(value, list | tuple):
            return [
                self.copy(item, f"{path}[{index}]", depth + 1) for index, item in enumerate(value)
            ]
        raise self._error(
            "invalid_value_type",
            path,
            "values must be JSON-like: null, bool, number, string, list or mapping",
            value_type=type(value).__name__,
        )

    def _check_key(self, key: object, path: str) -> None:
        if not isinstance(key, str):
            raise self._error("invalid_field_name", path, "keys must be strings")
        if not self._dotted_keys and (not key or "." in key):
            raise self._error(
                "invalid_field_name",
                f"{path}.{key}",
                "field names must be non-empty and contain no '.' (dots separate field paths)",
            )

    def _error(self, code: str, path: str, rule: str, **extra: Any) -> ValidationError:
        return ValidationError(
            f"{path}: {rule}",
            code=f"{self._prefix}.{code}",
            field=path,
            rule=rule,
            **self._context,
            **extra,
        )


# --- revised records ---------------------------------------------------------------------------

M = TypeVar("M", bound=BaseModel)


def revised(model: M, **changes: Any) -> M:
    """A copy of ``model`` with ``changes``, built through its constructor so that its validators
    run again (``model_copy(update=...)`` skips them: a copied case could name one agent as both
    winner and dissenter). Nested records are kept as they are, not re-validated."""
    fields = {name: getattr(model, name) for name in type(model).model_fields}
    unknown = set(changes) - set(fields)
    if unknown:
        raise TypeError(f"{type(model).__name__} has no field(s) {sorted(unknown)}")
    return type(model).model_validate({**fields, **changes})
