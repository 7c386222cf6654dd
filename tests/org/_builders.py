"""Small builders for org tests: members and charts with sensible defaults."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from accord.org import Agent, Department, OrgChart, SeniorityScale

ORG = "acme"

DEPARTMENTS = (
    Department(name="executive"),
    Department(name="engineering", parent="executive"),
    Department(name="backend", parent="engineering"),
    Department(name="frontend", parent="engineering"),
    Department(name="finance", parent="executive"),
    Department(name="billing", parent="finance"),
    Department(name="audit", parent="finance"),
    Department(name="labs"),
)


def member(
    agent_id: str,
    *,
    manager: str | None = None,
    department: str = "engineering",
    seniority: str = "mid",
    principal: str | None = None,
    **fields: Any,
) -> Agent:
    """An agent of ``acme`` whose principal, unless given, is its own ``human:<name>``."""
    return Agent(
        agent_id=agent_id,
        principal_id=principal or f"human:owner-of-{agent_id.split(':')[-1]}",
        organization_id=fields.pop("organization_id", ORG),
        department=department,
        seniority=seniority,
        manager=manager,
        **fields,
    )


def chart(
    agents: Iterable[Agent],
    departments: Iterable[Department] = DEPARTMENTS,
    seniority: SeniorityScale | None = None,
) -> OrgChart:
    """A chart of ``acme`` with the default departments and seniority scale."""
    return OrgChart(ORG, seniority or SeniorityScale(), departments, agents)


def company() -> OrgChart:
    """A small company with two branches under the executive, and a separate labs tree.

    human:ceo ─┬─ agent:cto ─┬─ agent:backend-lead ─┬─ agent:backend
               │             │                      └─ agent:backend-2
               │             └─ agent:frontend
               └─ agent:cfo ─┬─ agent:billing
                             └─ agent:audit
    agent:lab (labs, nobody above)
    """
    return chart(
        [
            member("human:ceo", department="executive", seniority="c_suite", kind="human"),
            member("agent:cto", manager="human:ceo", seniority="vp", principal="human:ceo"),
            member("agent:cfo", manager="human:ceo", department="finance", seniority="vp"),
            member(
                "agent:backend-lead", manager="agent:cto", department="backend", seniority="lead"
            ),
            member(
                "agent:backend",
                manager="agent:backend-lead",
                department="backend",
                seniority="senior",
            ),
            member("agent:backend-2", manager="agent:backend-lead", department="backend"),
            member("agent:frontend", manager="agent:cto", department="frontend"),
            member("agent:billing", manager="agent:cfo", department="billing", seniority="senior"),
            member("agent:audit", manager="agent:cfo", department="audit", seniority="lead"),
            member("agent:lab", department="labs", seniority="principal"),
        ]
    )
