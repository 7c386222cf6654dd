"""JSON for boundary records: floats kept exactly as ``{"$decimal": repr}``, values rendered short.

Signed records are canonical JSON (integers only), so an agent's float conclusion ``0.1`` is
written ``{"$decimal": "0.1"}`` (Python's shortest round-trip ``repr``) and read back exactly.
A mapping whose only key is ``"$decimal"`` with a string value always means a float here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from pydantic import JsonValue

from accord.crypto import canonical_bytes
from accord.errors import ValidationError

DECIMAL = "$decimal"
MAX_RENDERED = 120
"""Rendered values longer than this are cut, with an ellipsis, in human-readable statements."""


def encode(value: Any, field: str = "value") -> JsonValue:
    """A canonical-JSON-safe copy of ``value``: floats become ``{"$decimal": repr}``."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValidationError(
                f"{field}: numbers must be finite",
                code="boundary.non_finite",
                field=field,
                rule="numbers must be finite (no NaN or infinity)",
            )
        return {DECIMAL: repr(value)}
    if isinstance(value, Mapping):
        return {str(key): encode(item, f"{field}.{key}") for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [encode(item, f"{field}[{index}]") for index, item in enumerate(value)]
    raise ValidationError(
        f"{field}: not a JSON value ({type(value).__name__})",
        code="boundary.invalid_json",
        field=field,
        rule="values are null, booleans, numbers, strings, lists or mappings",
    )


def decode(value: JsonValue) -> JsonValue:
    """The inverse of :func:`encode`: ``{"$decimal": "0.1"}`` becomes ``0.1`` again."""
    if isinstance(value, Mapping):
        if len(value) == 1 and isinstance(value.get(DECIMAL), str):
            return float(str(value[DECIMAL]))
        return {key: decode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [decode(item) for item in value]
    return value


def canonical_size(value: Any) -> int:
    """Length in bytes of the canonical JSON of ``value`` (floats encoded first)."""
    return len(canonical_bytes(encode(value)))


def render(value: Any, limit: int | None = MAX_RENDERED) -> str:
    """A human-readable form: strings as they are (whitespace collapsed), other values as
    canonical JSON; cut to ``limit`` characters with an ellipsis unless ``limit`` is None."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, float):
        text = repr(value)
    else:
        text = canonical_bytes(encode(value)).decode("utf-8")
    text = " ".join(text.split())
    if limit is not None and len(text) > limit:
        return text[: limit - 1] + "…"
    return text


def result_key(value: Any) -> str:
    """The probe result that names ``value``: strings themselves, ``true``/``false``, numbers as
    written (``1450``, ``0.1``), anything else as its canonical JSON text."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    return canonical_bytes(encode(value)).decode("utf-8")


def leaves(value: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Leaf values of a nested mapping by dotted path (lists and empty mappings are leaves)."""
    found: dict[str, Any] = {}
    for key, item in value.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(item, Mapping) and item:
            found.update(leaves(item, path))
        else:
            found[path] = item
    return found


def same_json(a: Any, b: Any) -> bool:
    """Exact JSON equality where ``True`` never equals ``1`` (floats compared as written)."""
    return canonical_bytes(encode(a)) == canonical_bytes(encode(b))


MISSING = object()


def value_at(value: Any, path: str) -> Any:
    """The value at dotted ``path`` in nested mappings, or :data:`MISSING`."""
    node = value
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return MISSING
        node = node[part]
    return node
