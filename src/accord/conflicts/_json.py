"""Checking and copying JSON-like values (outputs, evidence content) with precise field paths.

A value is JSON-like when it is ``None``, a bool, an int, a finite float, a str, a list or
tuple of JSON-like values, or a mapping with str keys and JSON-like values. Accepted values
are copied into plain ``dict`` / ``list`` trees, so later changes to the caller's objects
cannot change a frozen model (or a hash taken over it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from accord.errors import ValidationError

MAX_DEPTH = 64
"""How deeply lists and mappings may nest in an output or evidence content."""


def plain_json(
    value: object, path: str, *, dotted_keys: bool, context: Mapping[str, Any]
) -> tuple[Any, bool]:
    """``(copy, saw_float)``: a plain copy of ``value``, and whether it holds any float.

    Raises ``ValidationError`` naming the offending ``field`` path (``output.items[2]``);
    ``dotted_keys=False`` also refuses empty keys and keys containing ``"."``, which would
    make dotted field paths ambiguous. ``context`` is added to every error.
    """
    walker = _Walker(dotted_keys, context)
    return walker.copy(value, path, 0), walker.saw_float


class _Walker:
    def __init__(self, dotted_keys: bool, context: Mapping[str, Any]) -> None:
        self._dotted_keys = dotted_keys
        self._context = context
        self.saw_float = False

    def copy(self, value: object, path: str, depth: int) -> Any:
        if value is None or isinstance(value, bool | int | str):
            return value
        if depth >= MAX_DEPTH and isinstance(value, Mapping | list | tuple):
            raise self._error(
                "conflicts.too_deep", path, f"values nest at most {MAX_DEPTH} levels deep"
            )
        if isinstance(value, float):
            if not math.isfinite(value):
                raise self._error(
                    "conflicts.non_finite", path, "numbers must be finite (no NaN or ∞)"
                )
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
            "conflicts.invalid_value_type",
            path,
            "values must be JSON-like: null, bool, number, string, list or mapping",
            value_type=type(value).__name__,
        )

    def _check_key(self, key: object, path: str) -> None:
        if not isinstance(key, str):
            raise self._error("conflicts.invalid_field_name", path, "keys must be strings")
        if not self._dotted_keys and (not key or "." in key):
            raise self._error(
                "conflicts.invalid_field_name",
                f"{path}.{key}",
                "field names must be non-empty and contain no '.' (dots separate field paths)",
            )

    def _error(self, code: str, path: str, rule: str, **extra: Any) -> ValidationError:
        return ValidationError(
            f"{path}: {rule}", code=code, field=path, rule=rule, **self._context, **extra
        )
