"""Every YAML boundary reports a bad value as ``file: key.path: rule`` with a stable code."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from accord.config_errors import (
    YamlReader,
    config_error,
    describe,
    from_pydantic,
    key_path,
    pydantic_rule,
)
from accord.errors import ConfigError, ValidationError


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
    assert error.code == "config.invalid"
    assert error.context["rule"] == "must be greater than 0"


def test_a_pydantic_rule_names_unknown_and_missing_keys_plainly() -> None:
    assert pydantic_rule(_first_error({"levels": [1], "colour": 1})) == "unknown key"
    assert pydantic_rule(_first_error({})) == "required key is missing"


def test_a_pydantic_rule_reads_as_a_lower_case_rule_without_python_class_names() -> None:
    class _Named(BaseModel):
        name: str = Field(min_length=2)
        when: _Entry | None = None

    with pytest.raises(PydanticValidationError) as short:
        _Named.model_validate({"name": "x"})
    with pytest.raises(PydanticValidationError) as wrong:
        _Named.model_validate({"name": "xy", "when": 3})

    assert pydantic_rule(short.value.errors()[0]) == "must have at least 2 characters"
    rule = pydantic_rule(wrong.value.errors()[0])
    assert rule.startswith("must be a valid dictionary")
    assert "_Entry" not in rule


def test_an_unknown_key_without_a_list_of_allowed_keys_is_still_an_unknown_key() -> None:
    error = from_pydantic(_first_error({"levels": [1], "colour": 1}), source="c.yaml", prefix="t")
    assert error.code == "config.unknown_key"
    assert error.context["key_path"] == "t.colour"
    assert error.context["rule"] == "unknown key"


class _SectionReader(YamlReader):
    """A reader of ``{entries: [{levels: [...], weight: ...}]}`` as the rooms write them."""

    def read(self, data: object) -> list[_Entry]:
        section = self._mapping(data, (), ("entries", "note"), ("entries",))
        entries = []
        for index, item in enumerate(self._list(section["entries"], ("entries",))):
            fields = self._mapping(item, ("entries", index), ("levels", "weight_key"))
            renamed = {"weight" if k == "weight_key" else k: v for k, v in fields.items()}
            try:
                entries.append(_Entry.model_validate(renamed))
            except PydanticValidationError as exc:
                raise self._from_pydantic(
                    exc, ("entries", index), {"weight": "weight_key"}
                ) from None
        if len(entries) > 1:
            raise self._error(("entries",), "at most one entry")
        return entries

    def placed(self, error: ValidationError) -> ConfigError:
        """A rule the entries broke together, placed at the entry that broke it."""
        return self._broken_item_rule(error, {"agents": {"manager_id": "manager"}})


@pytest.mark.parametrize(
    ("data", "code", "path", "rule"),
    [
        ([], "config.wrong_type", "section", "expected a mapping, got a list"),
        ({}, "config.missing_key", "section.entries", "required key is missing"),
        (
            {"entries": [], "colour": 1},
            "config.unknown_key",
            "section.colour",
            "unknown key; allowed keys: entries, note",
        ),
        ({"entries": "x"}, "config.wrong_type", "section.entries", "expected a list, got a string"),
        (
            {"entries": [{"levels": [1], "weight_key": 0}]},
            "config.invalid",
            "section.entries[0].weight_key",
            "must be greater than 0",
        ),
        (
            {"entries": [{"levels": [1]}, {"levels": [2]}]},
            "config.invalid",
            "section.entries",
            "at most one entry",
        ),
    ],
)
def test_a_yaml_reader_reports_each_problem_at_the_key_the_user_wrote(
    data: object, code: str, path: str, rule: str
) -> None:
    with pytest.raises(ConfigError) as raised:
        _SectionReader("c.yaml", "section").read(data)

    error = raised.value
    assert (error.code, error.context["key_path"], error.context["rule"]) == (code, path, rule)
    assert error.context["file"] == "c.yaml"
    assert error.message == f"c.yaml: {path}: {rule}"


def test_a_yaml_reader_places_a_rule_broken_by_a_list_item_at_that_item_s_key() -> None:
    broken = ValidationError(
        "manager is not defined",
        code="org.unknown_manager",
        collection="agents",
        index=2,
        field="manager_id",
        rule="manager 'agent:x' is not defined in agents",
        agent="agent:c",
    )

    error = _SectionReader("org.yaml", "org").placed(broken)

    assert error.code == "org.unknown_manager"
    assert error.context["key_path"] == "org.agents[2].manager"
    assert error.context["rule"] == "manager 'agent:x' is not defined in agents"
    assert error.context["agent"] == "agent:c"
