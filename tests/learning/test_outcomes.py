from __future__ import annotations

from datetime import datetime

import pydantic
import pytest

from ._builders import outcome


def test_an_outcome_is_frozen() -> None:
    case = outcome("c1")
    with pytest.raises(pydantic.ValidationError):
        case.winner = "agent:z"  # type: ignore[misc]


def test_an_outcome_needs_a_timezone() -> None:
    with pytest.raises(pydantic.ValidationError, match="timezone"):
        outcome("c1").model_validate(
            {**outcome("c1").model_dump(), "decided_at": datetime(2026, 1, 1)}
        )


@pytest.mark.parametrize(
    ("winner", "losers", "message"),
    [
        ("agent:a", ("agent:a",), "cannot also be a loser"),
        ("agent:a", ("agent:b", "agent:b"), "same agent twice"),
        ("agent:a", ("",), "at least 1 character"),
        ("", ("agent:b",), "at least 1 character"),
    ],
)
def test_the_parties_of_an_outcome_are_distinct_named_agents(
    winner: str, losers: tuple[str, ...], message: str
) -> None:
    with pytest.raises(pydantic.ValidationError, match=message):
        outcome("c1", winner=winner, losers=losers)


def test_unknown_fields_are_rejected() -> None:
    with pytest.raises(pydantic.ValidationError, match="extra"):
        type(outcome("c1")).model_validate({**outcome("c1").model_dump(), "mood": "grumpy"})
