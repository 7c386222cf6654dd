"""Property tests over random hierarchies: LCM/LCA, ancestry, cycle detection."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord.errors import ValidationError
from accord.org import Department, OrgChart
from accord.org._forest import Forest, find_cycle

from ._builders import chart, member

Parents = dict[str, str | None]


@st.composite
def forests(draw: st.DrawFn, max_size: int = 30) -> Parents:
    """A random acyclic parent map, listed in a random order."""
    size = draw(st.integers(min_value=1, max_value=max_size))
    parent_of: list[int | None] = [None]
    for node in range(1, size):
        parent_of.append(draw(st.none() | st.integers(min_value=0, max_value=node - 1)))
    order = draw(st.permutations(range(size)))
    return {f"n{i}": None if parent_of[i] is None else f"n{parent_of[i]}" for i in order}


@st.composite
def parent_maps(draw: st.DrawFn, max_size: int = 20, self_loops: bool = True) -> Parents:
    """A random parent map that may contain cycles (every node has at most one parent)."""
    size = draw(st.integers(min_value=1, max_value=max_size))
    parents: Parents = {}
    for node in range(size):
        parent = draw(st.none() | st.integers(min_value=0, max_value=size - 1))
        if parent == node and not self_loops:
            parent = None
        parents[f"n{node}"] = None if parent is None else f"n{parent}"
    return parents


def ancestors_or_self(parents: Parents, node: str) -> list[str]:
    found = [node]
    while (parent := parents[found[-1]]) is not None:
        found.append(parent)
    return found


def on_a_cycle(parents: Parents, node: str) -> bool:
    current = parents[node]
    for _ in range(len(parents)):
        if current is None:
            return False
        if current == node:
            return True
        current = parents[current]
    return False


def chart_of(parents: Parents) -> OrgChart:
    return chart(
        [member(f"agent:{node}", manager=_agent(parent)) for node, parent in parents.items()]
    )


def _agent(node: str | None) -> str | None:
    return None if node is None else f"agent:{node}"


@given(forests(), st.data())
def test_the_lowest_common_ancestor_is_the_deepest_shared_ancestor_or_self(
    parents: Parents, data: st.DataObject
) -> None:
    forest = Forest(parents)
    a = data.draw(st.sampled_from(sorted(parents)))
    b = data.draw(st.sampled_from(sorted(parents)))
    common = set(ancestors_or_self(parents, a)) & set(ancestors_or_self(parents, b))
    found = forest.lowest_common_ancestor(a, b)
    if not common:
        assert found is None
    else:
        assert found in common
        assert forest.depth(found) == max(forest.depth(node) for node in common)


@given(forests(), st.data())
def test_depth_ancestry_and_branch_agree_with_walking_up(
    parents: Parents, data: st.DataObject
) -> None:
    forest = Forest(parents)
    node = data.draw(st.sampled_from(sorted(parents)))
    other = data.draw(st.sampled_from(sorted(parents)))
    upward = ancestors_or_self(parents, node)
    assert forest.ancestors(node) == tuple(upward[1:])
    assert forest.depth(node) == len(upward) - 1
    assert forest.is_strict_ancestor(other, node) == (other in upward[1:])
    assert forest.branch(node) == (upward[-2] if len(upward) > 1 else node)


@given(parent_maps())
def test_a_cycle_is_found_exactly_when_one_exists(parents: Parents) -> None:
    cyclic_nodes = [node for node in parents if on_a_cycle(parents, node)]
    cycle = find_cycle(parents)
    if not cyclic_nodes:
        assert cycle is None
        return
    assert cycle is not None
    assert len(set(cycle)) == len(cycle)
    for position, node in enumerate(cycle):
        assert parents[node] == cycle[(position + 1) % len(cycle)]
    assert cycle[0] == cyclic_nodes[0]


@given(forests(), st.data())
def test_the_lcm_manages_both_parties_is_neither_and_is_the_lowest_such(
    parents: Parents, data: st.DataObject
) -> None:
    org = chart_of(parents)
    ids = sorted(agent.agent_id for agent in org)
    a = data.draw(st.sampled_from(ids))
    b = data.draw(st.sampled_from(ids))
    common = [m for m in ids if org.reports_to(a, m) and org.reports_to(b, m)]
    lcm = org.lowest_common_manager(a, b)
    if not common:
        assert lcm is None
        return
    assert lcm is not None
    assert lcm.agent_id not in (a, b)
    assert lcm.agent_id in common
    assert all(m == lcm.agent_id or org.reports_to(lcm.agent_id, m) for m in common)


@given(forests(), st.data())
def test_the_manager_chain_is_exactly_the_members_one_reports_to(
    parents: Parents, data: st.DataObject
) -> None:
    org = chart_of(parents)
    ids = sorted(agent.agent_id for agent in org)
    node = data.draw(st.sampled_from(ids))
    chain = [agent.agent_id for agent in org.manager_chain(node)]
    assert set(chain) == {m for m in ids if org.reports_to(node, m)}
    for below, above in pairwise([node, *chain]):
        assert org.agent(below).manager == above


@given(parent_maps(self_loops=False))
def test_a_chart_refuses_every_management_cycle_and_names_a_real_one(parents: Parents) -> None:
    has_cycle = any(on_a_cycle(parents, node) for node in parents)
    if not has_cycle:
        chart_of(parents)
        return
    with pytest.raises(ValidationError) as caught:
        chart_of(parents)
    assert caught.value.code == "org.management_cycle"
    cycle = caught.value.context["cycle"]
    for position, agent_id in enumerate(cycle):
        assert (
            _agent(parents[agent_id.removeprefix("agent:")]) == cycle[(position + 1) % len(cycle)]
        )


@given(forests(max_size=15), st.data())
def test_same_department_implies_same_branch_and_both_are_symmetric(
    parents: Parents, data: st.DataObject
) -> None:
    departments = [
        ("d" + node, None if parent is None else "d" + parent) for node, parent in parents.items()
    ]
    org = chart(
        [member(f"agent:{name}", department=name) for name, _ in departments]
        + [member(f"agent:{name}-2", department=name) for name, _ in departments],
        [Department(name=name, parent=parent) for name, parent in departments],
    )
    ids = sorted(agent.agent_id for agent in org)
    a = data.draw(st.sampled_from(ids))
    b = data.draw(st.sampled_from(ids))
    assert org.same_branch(a, b) == org.same_branch(b, a)
    assert org.same_department(a, b) == org.same_department(b, a)
    if org.same_department(a, b):
        assert org.same_branch(a, b)
    branch = org.branch_of(org.agent(a).department)
    chain = org.department_chain(org.agent(a).department)
    assert branch in chain
    assert branch.parent is None or org.department(branch.parent).parent is None


@given(parent_maps(self_loops=False))
def test_a_chart_refuses_every_department_cycle(parents: Parents) -> None:
    departments = [Department(name=node, parent=parent) for node, parent in parents.items()]
    if not any(on_a_cycle(parents, node) for node in parents):
        assert len(chart([], departments).departments()) == len(parents)
        return
    with pytest.raises(ValidationError) as caught:
        chart([], departments)
    assert caught.value.code == "org.department_cycle"
