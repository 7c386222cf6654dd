"""JSON for boundary records: values checked, floats encoded as ``{"$decimal": repr}``
(:mod:`accord.values`), and rendered short for human-readable statements."""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

from accord.crypto import canonical_bytes
from accord.values import plain_json, signable

MAX_RENDERED = 120
"""Rendered values longer than this are cut, with an ellipsis, in human-readable statements."""


def encode(value: Any, field: str = "value") -> JsonValue:
    """A canonical-JSON-safe copy of ``value``: checked by :func:`accord.values.plain_json`
    (``boundary.non_finite``, ``boundary.invalid_value_type``… naming ``field``), floats
    encoded by :func:`accord.values.signable`."""
    copy, saw_float = plain_json(value, field, code_prefix="boundary")
    result: JsonValue = signable(copy) if saw_float else copy
    return result


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


def same_json(a: Any, b: Any) -> bool:
    """Exact JSON equality where ``True`` never equals ``1`` (floats compared as written)."""
    return canonical_bytes(encode(a)) == canonical_bytes(encode(b))
