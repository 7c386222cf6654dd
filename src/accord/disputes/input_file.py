"""Reading dispute input from a file (``accord disputes open FILE``, ``evidence FILE``, ``import
FILE``), bounded: JSON (``accord.strict_json``: nesting and integer limits) or YAML (``.yaml`` /
``.yml``, ``accord.strict_yaml``); the size is checked before the file is read."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from accord.errors import ValidationError
from accord.limits import Limits, exceeded
from accord.strict_json import parse_json
from accord.strict_yaml import read_yaml_file

MAX_INPUT_FILE_BYTES: Final = 16 * 1024 * 1024
"""Largest dispute input file read (checked before reading)."""


def read_input_file(path: Path, limits: Limits, *, max_bytes: int = MAX_INPUT_FILE_BYTES) -> Any:
    """The JSON or YAML document in ``path``; ``ValidationError`` naming the file and rule."""
    where = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise _unreadable(where, str(exc.strerror or exc)) from None
    if size > max_bytes:
        raise exceeded("dispute_file_bytes", max_bytes, size, field=where, unit="bytes")
    if path.suffix.lower() in {".yaml", ".yml"}:
        return read_yaml_file(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise _unreadable(where, str(exc.strerror or exc)) from None
    except UnicodeDecodeError as exc:
        raise ValidationError(
            f"{where}: byte {exc.start} is not UTF-8",
            code="disputes.encoding",
            field=where,
            rule="UTF-8 text",
        ) from None
    return parse_json(text, limits, where=where)


def objects_in(data: Any, where: str, *, most: int) -> list[dict[str, Any]]:
    """``data`` as a list of objects: one object, or an array of 1 to ``most``."""
    items: list[Any] = data if isinstance(data, list) else [data]
    rule = f"one JSON object, or an array of 1 to {most:,}"
    if not items or len(items) > most or not all(isinstance(i, dict) for i in items):
        raise ValidationError(
            f"{where}: {rule}", code="disputes.invalid", field=where, rule=rule, requirement="R5"
        )
    return items


def _unreadable(where: str, why: str) -> ValidationError:
    return ValidationError(
        f"{where}: cannot read: {why}", code="disputes.unreadable", field=where, rule="readable"
    )
