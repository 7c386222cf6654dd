"""The one way DCP-07 record rules refuse input: a ``ValidationError`` naming the requirement."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError as PydanticValidationError

from accord.errors import ValidationError


def refused(
    requirement: str, field: str, rule: str, *, code: str, **context: Any
) -> ValidationError:
    """A ``ValidationError`` naming the DCP-07 ``requirement``, the ``field`` and the ``rule``."""
    return ValidationError(
        f"{field}: {rule} ({requirement})",
        code=code,
        requirement=requirement,
        field=field,
        rule=rule,
        **context,
    )


def from_pydantic(
    error: PydanticValidationError, *, requirement: str, record: str
) -> ValidationError:
    """The first problem pydantic found, as a refusal naming the field path and ``requirement``."""
    first = error.errors(include_url=False)[0]
    field = ".".join(str(part) for part in first["loc"]) or "$"
    return refused(
        requirement,
        field,
        str(first["msg"]),
        code="dcp.record_invalid",
        record=record,
        problems=error.error_count(),
    )
