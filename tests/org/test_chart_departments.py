from __future__ import annotations

import pytest

from accord.errors import NotFound
from accord.org import OrgChart


def test_a_department_is_found_by_name(acme: OrgChart) -> None:
    assert acme.department("backend").parent == "engineering"


def test_an_unknown_department_is_not_found(acme: OrgChart) -> None:
    with pytest.raises(NotFound) as caught:
        acme.department("marketing")
    assert caught.value.code == "org.unknown_department"


def test_the_department_chain_runs_from_the_department_up_to_its_root(acme: OrgChart) -> None:
    assert [d.name for d in acme.department_chain("backend")] == [
        "backend",
        "engineering",
        "executive",
    ]
    assert [d.name for d in acme.department_chain("labs")] == ["labs"]


def test_the_department_chain_of_an_unknown_department_is_not_found(acme: OrgChart) -> None:
    with pytest.raises(NotFound):
        acme.department_chain("marketing")


@pytest.mark.parametrize(
    ("department", "branch"),
    [
        ("backend", "engineering"),
        ("engineering", "engineering"),
        ("audit", "finance"),
        ("executive", "executive"),
        ("labs", "labs"),
    ],
)
def test_a_branch_is_the_child_of_a_root_above_the_department(
    acme: OrgChart, department: str, branch: str
) -> None:
    assert acme.branch_of(department).name == branch


def test_the_branch_of_an_unknown_department_is_not_found(acme: OrgChart) -> None:
    with pytest.raises(NotFound):
        acme.branch_of("marketing")


def test_same_department_means_exactly_the_same_department(acme: OrgChart) -> None:
    assert acme.same_department("agent:backend", "agent:backend-2")
    assert not acme.same_department("agent:backend", "agent:frontend")


def test_sibling_departments_are_in_the_same_branch(acme: OrgChart) -> None:
    assert acme.same_branch("agent:backend", "agent:frontend")
    assert acme.same_branch("agent:billing", "agent:audit")


def test_a_branch_head_is_in_the_branch_it_heads(acme: OrgChart) -> None:
    assert acme.same_branch("agent:cto", "agent:backend")


def test_different_branches_are_not_the_same_branch(acme: OrgChart) -> None:
    assert not acme.same_branch("agent:backend", "agent:billing")
    assert not acme.same_branch("human:ceo", "agent:backend")
    assert not acme.same_branch("agent:lab", "agent:backend")


def test_same_branch_of_an_unknown_member_is_not_found(acme: OrgChart) -> None:
    with pytest.raises(NotFound):
        acme.same_branch("agent:backend", "agent:nobody")
