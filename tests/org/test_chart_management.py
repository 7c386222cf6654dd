from __future__ import annotations

import pytest

from accord.errors import NotFound
from accord.org import OrgChart

from ._builders import chart, member


def ids(agents: tuple[object, ...]) -> list[str]:
    return [agent.agent_id for agent in agents]  # type: ignore[attr-defined]


def lcm_id(org: OrgChart, a: str, b: str) -> str | None:
    found = org.lowest_common_manager(a, b)
    return None if found is None else found.agent_id


def test_the_manager_chain_lists_managers_nearest_first(acme: OrgChart) -> None:
    assert ids(acme.manager_chain("agent:backend")) == [
        "agent:backend-lead",
        "agent:cto",
        "human:ceo",
    ]


def test_the_top_of_a_hierarchy_has_an_empty_manager_chain(acme: OrgChart) -> None:
    assert acme.manager_chain("human:ceo") == ()


def test_the_manager_chain_of_an_unknown_member_is_not_found(acme: OrgChart) -> None:
    with pytest.raises(NotFound):
        acme.manager_chain("agent:nobody")


def test_reports_to_holds_directly_and_transitively(acme: OrgChart) -> None:
    assert acme.reports_to("agent:backend", "agent:backend-lead")
    assert acme.reports_to("agent:backend", "human:ceo")


def test_reports_to_does_not_hold_upwards_sideways_or_for_oneself(acme: OrgChart) -> None:
    assert not acme.reports_to("human:ceo", "agent:backend")
    assert not acme.reports_to("agent:backend", "agent:backend-2")
    assert not acme.reports_to("agent:backend", "agent:cfo")
    assert not acme.reports_to("agent:backend", "agent:backend")
    assert not acme.reports_to("agent:lab", "human:ceo")


def test_the_lcm_of_two_peers_in_one_department_is_their_shared_manager(acme: OrgChart) -> None:
    assert lcm_id(acme, "agent:backend", "agent:backend-2") == "agent:backend-lead"


def test_the_lcm_of_members_of_sibling_departments_is_their_branch_head(acme: OrgChart) -> None:
    assert lcm_id(acme, "agent:backend", "agent:frontend") == "agent:cto"


def test_the_lcm_across_branches_is_the_head_of_the_company(acme: OrgChart) -> None:
    assert lcm_id(acme, "agent:backend", "agent:billing") == "human:ceo"


def test_when_one_party_manages_the_other_the_lcm_is_the_managers_own_manager(
    acme: OrgChart,
) -> None:
    assert lcm_id(acme, "agent:backend-lead", "agent:backend") == "agent:cto"
    assert lcm_id(acme, "agent:backend", "agent:cto") == "human:ceo"


def test_the_lcm_is_symmetric(acme: OrgChart) -> None:
    assert lcm_id(acme, "agent:billing", "agent:frontend") == lcm_id(
        acme, "agent:frontend", "agent:billing"
    )


def test_a_party_at_the_top_has_no_common_manager_with_anyone(acme: OrgChart) -> None:
    assert lcm_id(acme, "human:ceo", "agent:backend") is None


def test_members_of_separate_hierarchies_have_no_common_manager(acme: OrgChart) -> None:
    assert lcm_id(acme, "agent:lab", "agent:backend") is None


def test_two_tops_of_separate_hierarchies_have_no_common_manager() -> None:
    org = chart(
        [
            member("agent:a"),
            member("agent:b"),
            member("agent:a1", manager="agent:a"),
            member("agent:b1", manager="agent:b"),
        ]
    )
    assert lcm_id(org, "agent:a1", "agent:b1") is None


def test_the_lcm_of_a_member_with_itself_is_its_manager(acme: OrgChart) -> None:
    assert lcm_id(acme, "agent:backend", "agent:backend") == "agent:backend-lead"


def test_the_lcm_of_an_unknown_member_is_not_found(acme: OrgChart) -> None:
    with pytest.raises(NotFound):
        acme.lowest_common_manager("agent:backend", "agent:nobody")
