from __future__ import annotations

import pydantic
import pytest

from accord.errors import ValidationError
from accord.org import DEFAULT_SENIORITY_LEVELS, SeniorityScale


def test_the_default_scale_has_the_eight_levels_lowest_first() -> None:
    assert SeniorityScale().levels == DEFAULT_SENIORITY_LEVELS
    assert DEFAULT_SENIORITY_LEVELS[0] == "junior"
    assert DEFAULT_SENIORITY_LEVELS[-1] == "c_suite"


@pytest.mark.parametrize(("rank", "level"), list(enumerate(DEFAULT_SENIORITY_LEVELS)))
def test_a_levels_rank_is_its_position_on_the_scale(rank: int, level: str) -> None:
    assert SeniorityScale().rank(level) == rank


def test_an_unknown_level_is_a_validation_error_naming_the_valid_levels() -> None:
    with pytest.raises(ValidationError) as caught:
        SeniorityScale().rank("wizard")
    assert caught.value.code == "org.unknown_seniority"
    assert caught.value.context["level"] == "wizard"
    assert caught.value.context["valid_levels"] == DEFAULT_SENIORITY_LEVELS
    assert "junior, mid, senior, lead, principal, director, vp, c_suite" in caught.value.message


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [("junior", "vp", -1), ("lead", "lead", 0), ("c_suite", "director", 1)],
)
def test_compare_gives_the_sign_of_the_rank_difference(a: str, b: str, expected: int) -> None:
    assert SeniorityScale().compare(a, b) == expected


def test_compare_refuses_an_unknown_level() -> None:
    with pytest.raises(ValidationError):
        SeniorityScale().compare("junior", "emperor")


def test_a_custom_scale_ranks_by_its_own_order() -> None:
    scale = SeniorityScale(levels=("intern", "staff", "partner"))
    assert scale.rank("partner") == 2
    assert "staff" in scale
    assert "junior" not in scale


@pytest.mark.parametrize(
    ("levels", "rule"),
    [
        (("only",), "needs at least 2 levels"),
        (("junior", "Senior"), "level 'Senior' must be a lowercase identifier"),
        (("junior", "2nd"), "level '2nd' must be a lowercase identifier"),
        (("junior", "mid", "junior"), "level 'junior' appears more than once"),
    ],
)
def test_a_scale_needs_two_or_more_distinct_lowercase_identifiers(
    levels: tuple[str, ...], rule: str
) -> None:
    with pytest.raises(pydantic.ValidationError, match=rule):
        SeniorityScale(levels=levels)


def test_a_scale_is_frozen() -> None:
    scale = SeniorityScale()
    with pytest.raises(pydantic.ValidationError):
        scale.levels = ("a", "b")  # type: ignore[misc]
