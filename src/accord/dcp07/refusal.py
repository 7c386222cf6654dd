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
    """The first problem pydantic found, as a refusal naming the field path and ``requirement``.

    A signature whose ``domain_sep`` is not ``DCP-DISPUTE-SIG-v2`` is refused under R36 (every
    DCP-07 signature carries that tag; R44 is its conformance line), not as a shape error of
    the record, whichever problem pydantic listed first."""
    problems = error.errors(include_url=False)
    tag = [p for p in problems if p["loc"] and p["loc"][-1] == "domain_sep"]
    first = tag[0] if tag else problems[0]
    field = ".".join(str(part) for part in first["loc"]) or "$"
    return refused(
        "R36" if tag else requirement,
        field,
        str(first["msg"]),
        code="dcp.record_invalid",
        record=record,
        problems=error.error_count(),
    )
