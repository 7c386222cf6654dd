from __future__ import annotations

import time

import pytest

from accord.errors import NotFound, ValidationError
from accord.org import Department, OrgChart, SeniorityScale

from ._builders import DEPARTMENTS, ORG, chart, member


def construction_error(build: object) -> ValidationError:
    assert callable(build)
    with pytest.raises(ValidationError) as caught:
        build()
    return caught.value


def test_a_valid_chart_keeps_members_and_departments_in_the_order_given(acme: OrgChart) -> None:
    assert acme.organization_id == ORG
    assert acme.agents()[0].agent_id == "human:ceo"
    assert [agent.agent_id for agent in acme] == [agent.agent_id for agent in acme.agents()]
    assert len(acme) == 10
    assert acme.departments() == DEPARTMENTS
    assert acme.seniority == SeniorityScale()
    assert repr(acme) == "OrgChart(organization_id='acme', departments=8, agents=10)"


def test_an_empty_chart_is_allowed() -> None:
    empty = OrgChart(ORG, SeniorityScale(), [], [])
    assert len(empty) == 0
    assert "agent:x" not in empty


def test_a_member_is_found_by_id_and_membership_is_testable(acme: OrgChart) -> None:
    assert acme.agent("agent:billing").department == "billing"
    assert "agent:billing" in acme
    assert "agent:nobody" not in acme
    assert 42 not in acme


@pytest.mark.parametrize("unknown", ["agent:nobody", ["unhashable"]])
def test_an_unknown_member_is_not_found(acme: OrgChart, unknown: object) -> None:
    with pytest.raises(NotFound) as caught:
        acme.agent(unknown)  # type: ignore[arg-type]
    assert caught.value.code == "org.unknown_agent"
    assert caught.value.context["agent_id"] == unknown


@pytest.mark.parametrize("organization_id", ["", "ac me", 7])
def test_the_organization_id_must_be_a_name(organization_id: object) -> None:
    error = construction_error(lambda: OrgChart(organization_id, SeniorityScale(), [], []))  # type: ignore[arg-type]
    assert error.code == "org.invalid_organization"
    assert error.context["field"] == "organization_id"


def test_a_duplicate_agent_id_names_both_positions() -> None:
    error = construction_error(
        lambda: chart([member("agent:a"), member("agent:b"), member("agent:a")])
    )
    assert error.code == "org.duplicate_agent"
    assert error.context["collection"] == "agents"
    assert error.context["index"] == 2
    assert error.context["field"] == "agent_id"
    assert error.context["rule"] == "duplicate agent id 'agent:a' (first defined at agents[0])"
    assert error.message == (
        "agents[2].agent_id: duplicate agent id 'agent:a' (first defined at agents[0])"
    )


def test_an_agent_of_another_organization_is_refused() -> None:
    error = construction_error(lambda: chart([member("agent:a", organization_id="globex")]))
    assert error.code == "org.foreign_agent"
    assert error.context["field"] == "organization_id"
    assert error.context["rule"] == "organization 'globex' is not 'acme'"


def test_a_dangling_manager_is_named() -> None:
    error = construction_error(lambda: chart([member("agent:a", manager="agent:ghost")]))
    assert error.code == "org.dangling_manager"
    assert (error.context["index"], error.context["field"]) == (0, "manager")
    assert error.context["rule"] == "manager 'agent:ghost' is not defined in agents"


def test_an_undefined_department_is_named() -> None:
    error = construction_error(lambda: chart([member("agent:a", department="marketing")]))
    assert error.code == "org.undefined_department"
    assert error.context["field"] == "department"
    assert error.context["rule"] == "department 'marketing' is not defined in departments"


def test_an_unknown_seniority_is_named_with_the_valid_levels() -> None:
    error = construction_error(lambda: chart([member("agent:a", seniority="wizard")]))
    assert error.code == "org.unknown_seniority"
    assert error.context["field"] == "seniority"
    assert error.context["rule"] == (
        "seniority 'wizard' is not one of: junior, mid, senior, lead, principal, director, "
        "vp, c_suite"
    )


def test_a_management_cycle_of_two_names_its_members_in_order() -> None:
    error = construction_error(
        lambda: chart(
            [
                member("agent:root"),
                member("agent:a", manager="agent:b"),
                member("agent:b", manager="agent:a"),
            ]
        )
    )
    assert error.code == "org.management_cycle"
    assert error.context["cycle"] == ("agent:a", "agent:b")
    assert (error.context["index"], error.context["field"]) == (1, "manager")
    assert error.context["rule"] == "management cycle: agent:a -> agent:b -> agent:a"


def test_a_management_cycle_of_three_starts_at_its_first_listed_member() -> None:
    error = construction_error(
        lambda: chart(
            [
                member("agent:x", manager="agent:z"),
                member("agent:y", manager="agent:x"),
                member("agent:z", manager="agent:y"),
                member("agent:below", manager="agent:x"),
            ]
        )
    )
    assert error.context["cycle"] == ("agent:x", "agent:z", "agent:y")
    assert error.context["rule"] == "management cycle: agent:x -> agent:z -> agent:y -> agent:x"


def test_the_first_problem_in_member_order_is_reported() -> None:
    error = construction_error(
        lambda: chart(
            [member("agent:a", manager="agent:ghost"), member("agent:b", seniority="wizard")]
        )
    )
    assert error.code == "org.dangling_manager"


def test_a_duplicate_department_is_named() -> None:
    departments = [Department(name="ops"), Department(name="ops")]
    error = construction_error(lambda: chart([], departments))
    assert error.code == "org.duplicate_department"
    assert (error.context["collection"], error.context["index"]) == ("departments", 1)
    assert error.context["field"] == "name"
    assert error.context["rule"] == "duplicate department 'ops' (first defined at departments[0])"


def test_a_dangling_parent_department_is_named() -> None:
    error = construction_error(lambda: chart([], [Department(name="ops", parent="hq")]))
    assert error.code == "org.dangling_parent_department"
    assert error.context["field"] == "parent"
    assert error.context["rule"] == "parent department 'hq' is not defined in departments"


def test_a_department_cycle_names_its_members_in_order() -> None:
    departments = [
        Department(name="hq"),
        Department(name="a", parent="c"),
        Department(name="b", parent="a"),
        Department(name="c", parent="b"),
    ]
    error = construction_error(lambda: chart([], departments))
    assert error.code == "org.department_cycle"
    assert (error.context["index"], error.context["field"]) == (1, "parent")
    assert error.context["rule"] == "department cycle: a -> c -> b -> a"


def test_ten_thousand_members_in_a_wide_tree_build_well_under_a_second() -> None:
    agents = [member("agent:0", seniority="c_suite")]
    agents += [
        member(f"agent:{i}", manager=f"agent:{(i - 1) // 10}", seniority="junior")
        for i in range(1, 10_000)
    ]
    started = time.perf_counter()
    org = chart(agents)
    elapsed = time.perf_counter() - started
    assert elapsed < 0.5
    assert len(org.manager_chain("agent:9999")) == 4


def test_a_ten_thousand_deep_chain_builds_and_answers_without_recursion() -> None:
    agents = [member("agent:0")]
    agents += [member(f"agent:{i}", manager=f"agent:{i - 1}") for i in range(1, 10_000)]
    started = time.perf_counter()
    org = chart(agents)
    lcm = org.lowest_common_manager("agent:9999", "agent:5000")
    elapsed = time.perf_counter() - started
    assert elapsed < 0.5
    assert lcm is not None
    assert lcm.agent_id == "agent:4999"
    assert org.reports_to("agent:9999", "agent:0")
