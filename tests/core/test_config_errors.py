"""Every YAML boundary reports a bad value as ``file: key.path: rule`` with a stable code."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from accord.config_errors import (
    config_error,
    describe,
    from_pydantic,
    key_path,
    short_rule,
)


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    levels: list[int]
    weight: float = Field(default=1.0, gt=0)


def _first_error(data: object) -> dict:  # type: ignore[type-arg]
    with pytest.raises(PydanticValidationError) as err:
        _Entry.model_validate(data)
    return dict(err.value.errors(include_url=False)[0])


def test_a_key_path_joins_keys_with_dots_indexes_with_brackets_and_quotes_dotted_keys() -> None:
    assert key_path("org", ["agents", 3, "manager"]) == "org.agents[3].manager"
    assert key_path("", ["agents", 0]) == "agents[0]"
    assert key_path("detection", ["per_field", "a.b", "x"]) == 'detection.per_field["a.b"].x'
    assert key_path("x", [""]) == 'x[""]'


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (None, "null"),
        (True, "a boolean"),
        (3, "an integer"),
        (1.5, "a number"),
        ("s", "a string"),
        ([1], "a list"),
        ((1,), "a list"),
        ({"a": 1}, "a mapping"),
        (b"x", "a bytes"),
    ],
)
def test_values_are_described_the_way_yaml_users_name_them(value: object, name: str) -> None:
    assert describe(value) == name


def test_a_config_error_names_file_key_path_and_rule() -> None:
    error = config_error("org.yaml", "agents[2].level", "unknown level", code="config.bad_level")
    assert str(error.message) == "org.yaml: agents[2].level: unknown level"
    assert error.code == "config.bad_level"
    assert error.context["file"] == "org.yaml"
    assert error.context["key_path"] == "agents[2].level"
    assert error.context["rule"] == "unknown level"
    assert config_error("a.yaml", "", "empty", code="c").message == "a.yaml: empty"


def test_a_missing_key_renamed_to_the_yaml_spelling_under_its_entry() -> None:
    error = from_pydantic(
        _first_error({}),
        source="org.yaml",
        prefix="org",
        base=("departments", 1),
        rename={"levels": "seniority_levels"},
    )
    assert error.code == "config.missing_key"
    assert error.context["key_path"] == "org.departments[1].seniority_levels"


def test_a_wrong_type_says_what_was_expected_and_what_came() -> None:
    error = from_pydantic(_first_error({"levels": "three"}), source="c.yaml", prefix="")
    assert error.code == "config.wrong_type"
    assert error.context["rule"] == "expected a list, got a string"


def test_an_unknown_key_lists_the_allowed_ones_when_the_caller_knows_them() -> None:
    error = from_pydantic(
        _first_error({"levels": [1], "colour": "red"}),
        source="c.yaml",
        prefix="table",
        allowed_keys=lambda parent: ["levels", "weight"],
    )
    assert error.code == "config.unknown_key"
    assert error.context["rule"] == "unknown key; allowed keys: levels, weight"


def test_any_other_rule_is_pydantic_s_message_phrased_as_a_rule() -> None:
    error = from_pydantic(_first_error({"levels": [1], "weight": 0}), source="c.yaml", prefix="")
    assert error.code == "config.invalid_value"
    assert error.context["rule"] == "must be greater than 0"


def test_a_short_rule_names_unknown_and_missing_keys_plainly() -> None:
    assert short_rule(_first_error({"levels": [1], "colour": 1})) == "unknown key"
    assert short_rule(_first_error({})) == "required key is missing"
