"""Reading bundle drafts from a JSON file (``accord precedents add FILE``), bounded.

The file holds one draft object or an array of them. Its size is checked before it is read,
its nesting and integer literals while parsing (``accord.strict_json``), each draft against
:class:`BundleDraft`; every refusal names the file, the field and the rule.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError as PydanticValidationError

from accord.errors import ValidationError
from accord.limits import Limits, exceeded
from accord.precedents.bundle import BundleDraft
from accord.precedents.refusals import PrecedentRefused
from accord.precedents.store import MAX_BUNDLES_PER_CALL
from accord.strict_json import parse_json

MAX_DRAFT_FILE_BYTES = 16 * 1024 * 1024
"""Largest drafts file read (checked before reading)."""


def read_draft_file(
    path: Path, limits: Limits, *, max_bytes: int = MAX_DRAFT_FILE_BYTES
) -> list[BundleDraft]:
    """The drafts in ``path`` (at most ``max_bytes``); ``ValidationError`` naming the file,
    the field and the rule."""
    where = str(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise exceeded("precedent_file_bytes", max_bytes, size, field=where, unit="bytes")
        raw = path.read_bytes()
    except OSError as exc:
        raise ValidationError(
            f"{where}: cannot read: {exc.strerror or exc}",
            code="precedents.unreadable",
            field=where,
            rule="a readable file",
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError(
            f"{where}: byte {exc.start} is not UTF-8",
            code="precedents.encoding",
            field=where,
            rule="UTF-8 text",
        ) from None
    data = parse_json(text, limits, where=where)
    items: list[Any] = data if isinstance(data, list) else [data]
    if not items or len(items) > MAX_BUNDLES_PER_CALL:
        rule = f"one draft object, or an array of 1 to {MAX_BUNDLES_PER_CALL:,}"
        raise PrecedentRefused(f"{where}: {len(items):,} drafts ({rule})", field=where, rule=rule)
    return [
        _draft(item, f"{where}: [{i}]" if isinstance(data, list) else where)
        for i, item in enumerate(items)
    ]


def _draft(item: Any, where: str) -> BundleDraft:
    if not isinstance(item, dict):
        raise PrecedentRefused(
            f"{where}: a draft is a JSON object", field=where, rule="a JSON object"
        )
    try:
        return BundleDraft.model_validate(item)
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(part) for part in first["loc"])
        rule = str(first["msg"]).removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            rule = "unknown field"
        if not loc and "superseded_by" in rule:
            loc = "superseded_by"
        field = f"{where}: {loc}" if loc else where
        raise PrecedentRefused(f"{field}: {rule}", field=field, rule=rule) from None
