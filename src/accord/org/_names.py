"""The one string shape every org name shares: agent ids, principals, departments."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from accord.printable import printable_problem

NAME_RULE = "must be a non-empty name without whitespace"


def is_name(value: object) -> bool:
    """True for a non-empty printable string without whitespace."""
    return (
        isinstance(value, str)
        and bool(value)
        and printable_problem(value) is None
        and not any(character.isspace() for character in value)
    )


def _check_name(value: str) -> str:
    if not is_name(value):
        spaced = not value or any(character.isspace() for character in value)
        problem = None if spaced else printable_problem(value)
        raise ValueError(NAME_RULE if problem is None else f"must be a name of {problem}")
    return value


Identifier = Annotated[str, Field(strict=True), AfterValidator(_check_name)]
"""A non-empty string with no whitespace, such as ``agent:billing`` or ``backend``."""
