"""The errors the precedent registry raises: each names the field and the rule it breaks."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pydantic import ValidationError as PydanticValidationError

from accord.errors import NotFound, ValidationError


class PrecedentRefused(ValidationError):
    """A bundle or query breaks a rule; ``context`` names ``field``, ``rule`` (and the
    requirement, when one is broken)."""

    code = "precedents.invalid"


class PrecedentNotFound(NotFound):
    """No bundle with that jurisprudence id is in the registry."""

    code = "precedents.not_found"


def refused(
    message: str, *, field: str, rule: str, code: str, **context: object
) -> PrecedentRefused:
    """A :class:`PrecedentRefused` reading ``field: message``."""
    return PrecedentRefused(
        f"{field}: {message} ({rule})", code=code, field=field, rule=rule, **context
    )


@contextmanager
def as_precedent_error(what: str) -> Iterator[None]:
    """Map pydantic's first error at this boundary to ``precedents.invalid`` naming the
    dotted field (``applicability.applicable_conditions.2``) and the rule."""
    try:
        yield
    except PydanticValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or what
        if not first["loc"] and "superseded_by" in str(first["msg"]):
            field = "superseded_by"
        rule = str(first["msg"]).removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            rule = f"unknown field: {what} has no field {first['loc'][-1]!r}"
        raise PrecedentRefused(f"invalid {what}: {field}: {rule}", field=field, rule=rule) from None
