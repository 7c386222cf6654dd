"""The rules an org chart must satisfy before it is built; each broken rule is one error.

Every error is an ``accord.errors.ValidationError`` whose context names the offending
item as ``collection`` (``agents`` or ``departments``), ``index`` (its position in the
sequence given), ``field`` (a model field name) and ``rule`` (a short sentence), so a
config loader can turn it into a key path such as ``agents[3].manager``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from accord.errors import ValidationError
from accord.org._forest import find_cycle
from accord.org.agent import Agent
from accord.org.department import Department
from accord.org.seniority import SeniorityScale


def _problem(
    code: str, collection: str, index: int, field: str, rule: str, **extra: Any
) -> ValidationError:
    return ValidationError(
        f"{collection}[{index}].{field}: {rule}",
        code=code,
        collection=collection,
        index=index,
        field=field,
        rule=rule,
        **extra,
    )


def _loop(cycle: tuple[str, ...]) -> str:
    return " -> ".join((*cycle, cycle[0]))


def check_departments(departments: Sequence[Department]) -> None:
    """Names unique, every parent defined, no cycle of parents."""
    first_index: dict[str, int] = {}
    for index, department in enumerate(departments):
        first_index.setdefault(department.name, index)
    for index, department in enumerate(departments):
        first = first_index[department.name]
        if first != index:
            raise _problem(
                "org.duplicate_department",
                "departments",
                index,
                "name",
                f"duplicate department {department.name!r} (first defined at departments[{first}])",
                department=department.name,
            )
        if department.parent is not None and department.parent not in first_index:
            raise _problem(
                "org.dangling_parent_department",
                "departments",
                index,
                "parent",
                f"parent department {department.parent!r} is not defined in departments",
                department=department.name,
                parent=department.parent,
            )
    cycle = find_cycle({department.name: department.parent for department in departments})
    if cycle is not None:
        raise _problem(
            "org.department_cycle",
            "departments",
            first_index[cycle[0]],
            "parent",
            f"department cycle: {_loop(cycle)}",
            cycle=cycle,
        )


def check_agents(
    organization_id: str,
    seniority: SeniorityScale,
    department_names: Collection[str],
    agents: Sequence[Agent],
) -> None:
    """Ids unique; organization, department, seniority and manager defined; no management cycle."""
    first_index: dict[str, int] = {}
    for index, agent in enumerate(agents):
        first_index.setdefault(agent.agent_id, index)
    for index, agent in enumerate(agents):
        first = first_index[agent.agent_id]
        context: dict[str, Any] = {"agent_id": agent.agent_id}
        if first != index:
            raise _problem(
                "org.duplicate_agent",
                "agents",
                index,
                "agent_id",
                f"duplicate agent id {agent.agent_id!r} (first defined at agents[{first}])",
                **context,
            )
        if agent.organization_id != organization_id:
            raise _problem(
                "org.foreign_agent",
                "agents",
                index,
                "organization_id",
                f"organization {agent.organization_id!r} is not {organization_id!r}",
                **context,
            )
        if agent.department not in department_names:
            raise _problem(
                "org.undefined_department",
                "agents",
                index,
                "department",
                f"department {agent.department!r} is not defined in departments",
                **context,
            )
        if agent.seniority not in seniority:
            raise _problem(
                "org.unknown_seniority",
                "agents",
                index,
                "seniority",
                f"seniority {agent.seniority!r} is not one of: {', '.join(seniority.levels)}",
                **context,
            )
        if agent.manager is not None and agent.manager not in first_index:
            raise _problem(
                "org.dangling_manager",
                "agents",
                index,
                "manager",
                f"manager {agent.manager!r} is not defined in agents",
                **context,
            )
    cycle = find_cycle({agent.agent_id: agent.manager for agent in agents})
    if cycle is not None:
        raise _problem(
            "org.management_cycle",
            "agents",
            first_index[cycle[0]],
            "manager",
            f"management cycle: {_loop(cycle)}",
            agent_id=cycle[0],
            cycle=cycle,
        )
