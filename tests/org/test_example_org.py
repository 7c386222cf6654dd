from __future__ import annotations

from pathlib import Path

import pytest

import accord
from accord.org import DEFAULT_SENIORITY_LEVELS, OrgChart, load_org_chart

EXAMPLE = Path(accord.__file__).parent / "examples" / "org.yaml"


@pytest.fixture(scope="module")
def example() -> OrgChart:
    return load_org_chart(EXAMPLE)


def test_the_example_company_loads_cleanly(example: OrgChart) -> None:
    assert example.organization_id == "acme"
    assert 12 <= len(example) <= 20


def test_the_example_uses_every_seniority_level(example: OrgChart) -> None:
    assert {agent.seniority for agent in example} == set(DEFAULT_SENIORITY_LEVELS)


def test_the_example_has_a_human_ceo_and_a_few_other_humans(example: OrgChart) -> None:
    ceo = example.agent("human:ceo")
    assert ceo.is_human
    assert ceo.manager is None
    assert 2 <= sum(agent.is_human for agent in example) <= 5


def test_the_example_has_the_branches_the_demos_rely_on(example: OrgChart) -> None:
    branches = {example.branch_of(d.name).name for d in example.departments()}
    assert branches == {"executive", "engineering", "finance", "research"}
    assert {d.name for d in example.departments()} >= {
        "backend",
        "frontend",
        "qa",
        "billing",
        "audit",
    }


def test_the_example_settles_a_cross_department_conflict_at_the_ceo(example: OrgChart) -> None:
    assert not example.same_branch("agent:backend", "agent:billing")
    lcm = example.lowest_common_manager("agent:backend", "agent:billing")
    assert lcm is not None
    assert lcm.agent_id == "human:ceo"


def test_the_example_has_independent_panel_candidates_for_a_finance_dispute(
    example: OrgChart,
) -> None:
    parties = ["agent:billing", "agent:audit"]
    panel = [
        agent.agent_id
        for agent in example
        if not agent.is_human
        and example.eligible_for_panel(agent.agent_id)
        and example.is_independent_of(agent.agent_id, parties)
    ]
    assert len(panel) >= 3
    assert not example.eligible_for_panel("agent:billing-intern")
    assert not example.eligible_for_panel("agent:legacy-reports")
