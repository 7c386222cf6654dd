from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from accord.errors import ConfigError
from accord.org import LifecycleState, MemberKind, load_org_chart, org_chart_from_mapping

SOURCE = "accord.yaml"
ALL_LEVELS = "junior, mid, senior, lead, principal, director, vp, c_suite"
LIFECYCLES = "'commissioned', 'active', 'declining', 'suspended' or 'decommissioned'"


def document() -> dict[str, Any]:
    """A valid org document: ceo > cto > lead > dev, in executive > engineering > backend."""
    return {
        "organization": "acme",
        "departments": [
            {"name": "executive"},
            {"name": "engineering", "parent": "executive"},
            {"name": "backend", "parent": "engineering"},
        ],
        "agents": [
            {
                "id": "human:ceo",
                "kind": "human",
                "principal": "human:ceo",
                "department": "executive",
                "seniority": "c_suite",
            },
            {
                "id": "agent:cto",
                "principal": "human:ceo",
                "department": "engineering",
                "seniority": "vp",
                "manager": "human:ceo",
                "vitality": 900,
                "lifecycle": "active",
                "capabilities": ["architecture"],
            },
            {
                "id": "agent:lead",
                "principal": "human:ceo",
                "department": "backend",
                "seniority": "lead",
                "manager": "agent:cto",
            },
            {
                "id": "agent:dev",
                "principal": "human:ceo",
                "department": "backend",
                "seniority": "mid",
                "manager": "agent:lead",
            },
        ],
    }


def changed(path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """The valid document with the value at ``path`` replaced (or removed, for ``...``)."""
    data = copy.deepcopy(document())
    target: Any = data
    for part in path[:-1]:
        target = target[part]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


def config_error(data: Any, *, key_prefix: str = "") -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        org_chart_from_mapping(data, source=SOURCE, key_prefix=key_prefix)
    error = caught.value
    assert error.context["file"] == SOURCE
    path = error.context["key_path"]
    where = f"{path}: " if path else ""
    assert error.message == f"{SOURCE}: {where}{error.context['rule']}"
    return error


def located(error: ConfigError) -> tuple[str, str, str]:
    return error.code, error.context["key_path"], error.context["rule"]


# -- a valid document -------------------------------------------------------------------


def test_a_valid_document_becomes_a_chart_with_every_field_mapped() -> None:
    org = org_chart_from_mapping(document(), source=SOURCE)
    cto = org.agent("agent:cto")
    assert org.organization_id == "acme"
    assert cto.principal_id == "human:ceo"
    assert cto.organization_id == "acme"
    assert cto.vitality == 900
    assert cto.lifecycle_state is LifecycleState.ACTIVE
    assert cto.capabilities == ("architecture",)
    assert org.agent("human:ceo").kind is MemberKind.HUMAN
    assert org.lowest_common_manager("agent:dev", "agent:lead") == cto


def test_seniority_levels_default_to_the_eight_and_may_be_replaced() -> None:
    assert org_chart_from_mapping(document(), source=SOURCE).seniority.levels[-1] == "c_suite"
    data = changed(("seniority_levels",), ["mid", "lead", "vp", "c_suite"])
    assert org_chart_from_mapping(data, source=SOURCE).rank_of("agent:lead") == 1


def test_a_file_is_loaded_and_named_in_errors(tmp_path: Path) -> None:
    path = tmp_path / "org.yaml"
    path.write_text("organization: acme\ndepartments: [{name: hq}]\nagents: []\n", encoding="utf-8")
    assert load_org_chart(path).departments()[0].name == "hq"
    path.write_text("organization: acme\ndepartments: []\nagents: []\nextra: 1\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_org_chart(path)
    assert caught.value.context["file"] == str(path)
    assert caught.value.message.startswith(f"{path}: extra: unknown key")


# -- unknown keys -----------------------------------------------------------------------


def test_an_unknown_top_level_key_is_refused() -> None:
    assert located(config_error(changed(("colour",), "blue"))) == (
        "config.unknown_key",
        "colour",
        "unknown key; allowed keys: agents, departments, organization, seniority_levels",
    )


def test_an_unknown_agent_key_is_refused_at_its_path() -> None:
    assert located(config_error(changed(("agents", 2, "colour"), "blue"))) == (
        "config.unknown_key",
        "agents[2].colour",
        "unknown key; allowed keys: capabilities, department, id, kind, lifecycle, manager, "
        "principal, seniority, vitality",
    )


def test_a_model_field_name_is_not_a_yaml_key() -> None:
    error = config_error(changed(("agents", 0, "agent_id"), "human:ceo"))
    assert located(error)[:2] == ("config.unknown_key", "agents[0].agent_id")


def test_an_unknown_department_key_is_refused_at_its_path() -> None:
    assert located(config_error(changed(("departments", 1, "head"), "agent:cto"))) == (
        "config.unknown_key",
        "departments[1].head",
        "unknown key; allowed keys: name, parent",
    )


# -- missing keys -----------------------------------------------------------------------


@pytest.mark.parametrize("key", ["organization", "departments", "agents"])
def test_a_missing_top_level_key_is_named(key: str) -> None:
    assert located(config_error(changed((key,), ...))) == (
        "config.missing_key",
        key,
        "required key is missing",
    )


@pytest.mark.parametrize("key", ["id", "principal", "department", "seniority"])
def test_a_missing_agent_key_is_named_by_its_yaml_name(key: str) -> None:
    assert located(config_error(changed(("agents", 2, key), ...))) == (
        "config.missing_key",
        f"agents[2].{key}",
        "required key is missing",
    )


def test_a_missing_department_name_is_named() -> None:
    assert located(config_error(changed(("departments", 2, "name"), ...))) == (
        "config.missing_key",
        "departments[2].name",
        "required key is missing",
    )


# -- wrong types and bad values ---------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "key_path", "rule"),
    [
        (
            ("agents", 3, "vitality"),
            "900",
            "agents[3].vitality",
            "expected an integer, got a string",
        ),
        (
            ("agents", 3, "vitality"),
            True,
            "agents[3].vitality",
            "expected an integer, got a boolean",
        ),
        (("agents", 1, "id"), 42, "agents[1].id", "expected a string, got an integer"),
        (("agents", 2, "manager"), 7, "agents[2].manager", "expected a string, got an integer"),
        (("agents", 2, "department"), None, "agents[2].department", "expected a string, got null"),
        (
            ("agents", 1, "capabilities"),
            "python",
            "agents[1].capabilities",
            "expected a list, got a string",
        ),
        (
            ("agents", 1, "capabilities", 0),
            3.5,
            "agents[1].capabilities[0]",
            "expected a string, got a number",
        ),
        (("agents",), {"id": "x"}, "agents", "expected a list, got a mapping"),
        (("agents", 0), "human:ceo", "agents[0]", "expected a mapping, got a string"),
        (("departments",), "executive", "departments", "expected a list, got a string"),
        (("departments", 0), ["executive"], "departments[0]", "expected a mapping, got a list"),
        (("organization",), 5, "organization", "expected a string, got an integer"),
        (("seniority_levels",), "junior", "seniority_levels", "expected a list, got a string"),
    ],
)
def test_a_value_of_the_wrong_type_is_named_with_what_was_expected(
    path: tuple[str | int, ...], value: Any, key_path: str, rule: str
) -> None:
    assert located(config_error(changed(path, value))) == ("config.wrong_type", key_path, rule)


@pytest.mark.parametrize(
    ("path", "value", "key_path", "rule"),
    [
        (
            ("agents", 3, "vitality"),
            1001,
            "agents[3].vitality",
            "must be less than or equal to 1000",
        ),
        (("agents", 3, "vitality"), -5, "agents[3].vitality", "must be greater than or equal to 0"),
        (("agents", 3, "lifecycle"), "retired", "agents[3].lifecycle", f"must be {LIFECYCLES}"),
        (("agents", 3, "kind"), "robot", "agents[3].kind", "must be 'agent' or 'human'"),
        (
            ("agents", 3, "id"),
            "agent dev",
            "agents[3].id",
            "must be a non-empty name without whitespace",
        ),
        (
            ("agents", 1, "manager"),
            "agent:cto",
            "agents[1].manager",
            "an agent cannot be its own manager",
        ),
        (
            ("departments", 1, "parent"),
            "engineering",
            "departments[1].parent",
            "a department cannot be its own parent",
        ),
        (("organization",), "ac me", "organization", "must be a non-empty name without whitespace"),
        (
            ("seniority_levels",),
            ["junior", "Junior"],
            "seniority_levels",
            "level 'Junior' must be a lowercase identifier (a-z, 0-9, _; a letter first)",
        ),
        (("seniority_levels",), ["junior"], "seniority_levels", "needs at least 2 levels"),
    ],
)
def test_a_bad_value_is_named_with_the_rule_it_breaks(
    path: tuple[str | int, ...], value: Any, key_path: str, rule: str
) -> None:
    assert located(config_error(changed(path, value))) == ("config.invalid", key_path, rule)


def test_a_non_string_seniority_level_is_located_in_the_list() -> None:
    assert located(config_error(changed(("seniority_levels",), ["junior", 2]))) == (
        "config.wrong_type",
        "seniority_levels[1]",
        "expected a string, got an integer",
    )


def test_a_document_that_is_not_a_mapping_is_refused_without_a_key_path() -> None:
    error = config_error(["organization", "acme"])
    assert located(error) == ("config.wrong_type", "", "expected a mapping, got a list")
    assert error.message == "accord.yaml: expected a mapping, got a list"


# -- org chart rules --------------------------------------------------------------------


def test_a_dangling_manager_reads_file_key_path_and_rule() -> None:
    error = config_error(changed(("agents", 3, "manager"), "agent:x"))
    assert located(error) == (
        "org.dangling_manager",
        "agents[3].manager",
        "manager 'agent:x' is not defined in agents",
    )
    assert error.message == (
        "accord.yaml: agents[3].manager: manager 'agent:x' is not defined in agents"
    )
    assert isinstance(error, ConfigError)


def test_a_management_cycle_of_two_names_its_members() -> None:
    data = changed(("agents", 2, "manager"), "agent:dev")
    error = config_error(data)
    assert located(error) == (
        "org.management_cycle",
        "agents[2].manager",
        "management cycle: agent:lead -> agent:dev -> agent:lead",
    )
    assert error.context["cycle"] == ("agent:lead", "agent:dev")


def test_a_management_cycle_of_three_names_its_members_in_order() -> None:
    data = changed(("agents", 1, "manager"), "agent:dev")
    assert located(config_error(data)) == (
        "org.management_cycle",
        "agents[1].manager",
        "management cycle: agent:cto -> agent:dev -> agent:lead -> agent:cto",
    )


def test_an_unknown_seniority_is_named_with_the_valid_levels() -> None:
    assert located(config_error(changed(("agents", 3, "seniority"), "wizard"))) == (
        "org.unknown_seniority",
        "agents[3].seniority",
        f"seniority 'wizard' is not one of: {ALL_LEVELS}",
    )


def test_an_unknown_department_is_named() -> None:
    assert located(config_error(changed(("agents", 3, "department"), "marketing"))) == (
        "org.undefined_department",
        "agents[3].department",
        "department 'marketing' is not defined in departments",
    )


def test_a_duplicate_agent_id_is_named_at_its_second_definition() -> None:
    assert located(config_error(changed(("agents", 3, "id"), "agent:cto"))) == (
        "org.duplicate_agent",
        "agents[3].id",
        "duplicate agent id 'agent:cto' (first defined at agents[1])",
    )


def test_a_department_cycle_names_its_members() -> None:
    assert located(config_error(changed(("departments", 0, "parent"), "backend"))) == (
        "org.department_cycle",
        "departments[0].parent",
        "department cycle: executive -> backend -> engineering -> executive",
    )


def test_a_dangling_parent_department_is_named() -> None:
    assert located(config_error(changed(("departments", 2, "parent"), "platform"))) == (
        "org.dangling_parent_department",
        "departments[2].parent",
        "parent department 'platform' is not defined in departments",
    )


def test_a_duplicate_department_is_named() -> None:
    assert located(config_error(changed(("departments", 2), {"name": "executive"}))) == (
        "org.duplicate_department",
        "departments[2].name",
        "duplicate department 'executive' (first defined at departments[0])",
    )


# -- a section of a larger config -------------------------------------------------------


def test_a_key_prefix_is_put_before_every_key_path() -> None:
    error = config_error(changed(("agents", 3, "manager"), "agent:x"), key_prefix="org")
    assert error.context["key_path"] == "org.agents[3].manager"
    assert error.message.startswith("accord.yaml: org.agents[3].manager: manager 'agent:x'")


def test_a_key_prefix_names_a_section_that_is_not_a_mapping() -> None:
    error = config_error("acme", key_prefix="org")
    assert located(error) == ("config.wrong_type", "org", "expected a mapping, got a string")


def test_a_key_prefix_applies_to_shape_and_value_errors_alike() -> None:
    assert config_error(changed(("x",), 1), key_prefix="org").context["key_path"] == "org.x"
    error = config_error(changed(("agents", 0, "vitality"), "hi"), key_prefix="org")
    assert error.context["key_path"] == "org.agents[0].vitality"


# -- YAML files -------------------------------------------------------------------------


def write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "accord.yaml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def file_error(path: Path) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load_org_chart(path)
    assert caught.value.context["file"] == str(path)
    return caught.value


def test_bad_yaml_syntax_names_the_file_and_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "organization: acme\ndepartments: []\nagents:\n  - id: [unclosed\n")
    error = file_error(path)
    assert error.code == "config.yaml_syntax"
    assert error.context["line"] == 5
    assert error.context["rule"].startswith("invalid YAML syntax: ")
    assert error.message.startswith(f"{path}: line 5, column ")


def test_a_bad_indent_is_located_on_its_own_line(tmp_path: Path) -> None:
    path = write(tmp_path, "organization: acme\n  departments: []\n")
    error = file_error(path)
    assert (error.code, error.context["line"], error.context["column"]) == (
        "config.yaml_syntax",
        2,
        14,
    )
    assert error.context["rule"] == "invalid YAML syntax: mapping values are not allowed here"


def test_a_key_defined_twice_is_refused_with_its_line(tmp_path: Path) -> None:
    text = "organization: acme\ndepartments: []\nagents: []\norganization: globex\n"
    error = file_error(write(tmp_path, text))
    assert (error.code, error.context["line"], error.context["rule"]) == (
        "config.duplicate_key",
        4,
        "duplicate key 'organization'",
    )


def test_a_duplicate_key_inside_an_agent_is_refused(tmp_path: Path) -> None:
    text = "organization: acme\ndepartments: []\nagents:\n  - {id: a, id: b}\n"
    assert file_error(write(tmp_path, text)).context["line"] == 4


def test_an_unhashable_key_is_a_syntax_error(tmp_path: Path) -> None:
    error = file_error(write(tmp_path, "? [a, b]\n: 1\n"))
    assert error.code == "config.yaml_syntax"
    assert error.context["line"] == 1


def test_yaml_tags_for_python_objects_are_refused(tmp_path: Path) -> None:
    error = file_error(write(tmp_path, "organization: !!python/object:os.system {}\n"))
    assert error.code == "config.yaml_syntax"


def test_a_control_character_is_refused(tmp_path: Path) -> None:
    error = file_error(write(tmp_path, "organization: ac\x07me\n"))
    assert error.code == "config.yaml_syntax"
    assert error.context["rule"].startswith("invalid YAML: ")


def test_a_yaml_date_where_a_name_belongs_is_a_wrong_type(tmp_path: Path) -> None:
    error = file_error(write(tmp_path, "organization: 2026-01-01\ndepartments: []\nagents: []\n"))
    assert located(error) == ("config.wrong_type", "organization", "expected a string, got a date")


def test_an_empty_file_is_not_an_org_chart(tmp_path: Path) -> None:
    error = file_error(write(tmp_path, ""))
    assert located(error) == ("config.wrong_type", "", "expected a mapping, got null")


def test_a_missing_file_is_unreadable(tmp_path: Path) -> None:
    error = file_error(tmp_path / "absent.yaml")
    assert error.code == "config.unreadable"
    assert error.context["rule"] == "cannot read the file: No such file or directory"


def test_a_file_that_is_not_utf8_is_unreadable(tmp_path: Path) -> None:
    error = file_error(write(tmp_path, b"organization: \xff\n"))
    assert error.code == "config.unreadable"
    assert error.context["rule"] == "the file is not valid UTF-8 (byte 14)"
