"""Canonical JSON bytes, profile ``dcp-jcs-v1``: what every signature and hash is taken over.

Keys sorted by code point, compact separators, UTF-8, only the escapes JSON requires, and
integers only (within ±(2**53 − 1), the range every DCP SDK represents exactly). Python
values are checked strictly: any ``float`` is refused, even ``1.0``. JSON *text* from the
outside is read with JavaScript number semantics by :func:`canonical_from_json_text`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any, NoReturn, cast

from accord.errors import CanonicalizationError

PROFILE = "dcp-jcs-v1"
MAX_SAFE_INTEGER = 2**53 - 1

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def canonical_bytes(value: object) -> bytes:
    """The dcp-jcs-v1 bytes of ``value``; raises ``CanonicalizationError`` naming path and rule."""
    try:
        if not _is_plain_json(value):
            _check(value, "$")  # slow walk: accepts subclasses and Mappings, or raises precisely
        text = _ENCODER.encode(value)
    except RecursionError:
        _raise_too_deep()
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        _check(value, "$")  # raises canonical.surrogate at the offending path
        raise  # pragma: no cover  (unreachable: _check finds every lone surrogate)


def _mapping_as_dict(value: object) -> dict[object, object]:
    """``json`` hook: a validated non-dict Mapping is written as its dict."""
    return dict(cast("Mapping[object, object]", value))


# One encoder for every call (it holds only its settings): ``json.dumps`` with these options
# would build a new JSONEncoder per record, a measurable part of signing a small one.
_ENCODER = json.JSONEncoder(
    ensure_ascii=False,
    sort_keys=True,
    separators=(",", ":"),
    check_circular=False,  # canonical_bytes' walk already refused cycles
    allow_nan=False,
    default=_mapping_as_dict,
)


def canonical_from_json_text(text: str) -> bytes:
    """Canonical bytes of JSON text, reading numbers as JavaScript does (``1.0`` → ``1``).

    Fractional or non-finite numbers, duplicate keys and malformed JSON raise
    ``CanonicalizationError``.
    """
    try:
        parsed = json.loads(
            text,
            parse_float=float,
            parse_constant=_reject_constant,
            object_pairs_hook=_ParsedObject,
        )
        normalized = _normalize_parsed(parsed, "$")
    except RecursionError:
        _raise_too_deep()
    except ValueError as exc:  # JSONDecodeError, or an integer literal too long to convert
        raise CanonicalizationError(
            f"not valid JSON text: {exc}",
            code="canonical.json_syntax",
            path="$",
            rule="input must be a single well-formed JSON text (RFC 8259)",
        ) from exc
    return canonical_bytes(normalized)


def _is_plain_json(value: object) -> bool:
    """Fast structural check over exact built-in types; False means "take the slow walk"."""
    kind = type(value)
    if kind is dict:
        mapping = cast("dict[object, object]", value)
        return _plain_items(mapping.values(), mapping)
    if kind is list or kind is tuple:
        return _plain_items(cast("list[object]", value), None)
    return _plain_leaf(value, kind)


def _plain_items(items: Iterable[object], keys: Iterable[object] | None) -> bool:
    # Leaves are checked inline: most nodes are strings and small integers, and a call per
    # leaf was most of the cost of signing a record.
    if keys is not None:
        for key in keys:
            if type(key) is not str:
                return False
    for item in items:
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:  # type: ignore[operator]
                continue
            return False
        # no cast() here: it is a call per node on the hot path
        if kind is dict:
            if not _plain_items(item.values(), item):  # type: ignore[attr-defined, arg-type]
                return False
        elif kind is list or kind is tuple:
            if not _plain_items(item, None):  # type: ignore[arg-type]
                return False
        else:
            return False
    return True


def _plain_leaf(value: object, kind: type) -> bool:
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER  # type: ignore[operator]
    return False


def integer_text(value: int) -> str:
    """``value`` in decimal, or a description when it is too long to print (Python refuses to
    convert integers of more than 4,300 digits to text)."""
    if value.bit_length() <= 4096:  # at most 1,234 digits
        return str(value)
    return f"an integer of {value.bit_length():,} bits"


def _check(value: object, path: str) -> None:
    """Validate ``value`` fully (subclasses, any Mapping, surrogates) or raise at its path."""
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, str):
        _check_text(value, path, what="string")
    elif isinstance(value, int):
        if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            raise _error(
                "canonical.integer_range",
                path,
                "integers must lie within ±(2**53 − 1)",
                value=integer_text(value),
            )
    elif isinstance(value, float):
        raise _error(
            "canonical.float",
            path,
            "numbers must be integers; encode fractions as basis points or decimal strings",
            value=repr(value),
        )
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise _error(
                    "canonical.key_type",
                    f"{path}[{key!r}]",
                    "object keys must be strings",
                    key_type=type(key).__name__,
                )
            child = _child_path(path, key)
            _check_text(key, child, what="key")
            _check(item, child)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check(item, f"{path}[{index}]")
    else:
        raise _error(
            "canonical.type",
            path,
            "only null, bool, int, str, list/tuple and str-keyed mappings are JSON",
            value_type=type(value).__name__,
        )


def _check_text(text: str, path: str, *, what: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise _error(
            "canonical.surrogate",
            path,
            f"{what}s must be valid Unicode (no lone surrogates)",
            position=exc.start,
        ) from exc


def _child_path(path: str, key: str) -> str:
    if _IDENTIFIER.match(key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key)}]"


def _error(code: str, path: str, rule: str, **context: object) -> CanonicalizationError:
    return CanonicalizationError(
        f"cannot canonicalize {path}: {rule}", code=code, path=path, rule=rule, **context
    )


def _raise_too_deep() -> NoReturn:
    raise _error(
        "canonical.depth",
        "$",
        "values must be finite trees (no cycles, nesting within the recursion limit)",
    )


class _ParsedObject(list[tuple[str, Any]]):
    """A JSON object exactly as parsed: its (key, value) pairs in order, duplicates kept."""


def _reject_constant(name: str) -> NoReturn:
    raise CanonicalizationError(
        f"cannot canonicalize {name}: numbers must be finite",
        code="canonical.float",
        path="$",
        rule="numbers must be finite integers",
        value=name,
    )


def _normalize_parsed(value: Any, path: str) -> Any:
    """Apply the profile's number rule to a parse tree and rebuild objects as dicts."""
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            raise _error(
                "canonical.float",
                path,
                "numbers must have an integer value (1.0 and 1e2 are fine, 0.1 is not)",
                value=repr(value),
            )
        return int(value)
    if isinstance(value, _ParsedObject):
        result: dict[str, Any] = {}
        for key, item in value:
            child = _child_path(path, key)
            if key in result:
                raise _error("canonical.duplicate_key", child, "object keys must be unique")
            result[key] = _normalize_parsed(item, child)
        return result
    if isinstance(value, list):
        return [_normalize_parsed(item, f"{path}[{index}]") for index, item in enumerate(value)]
    return value
