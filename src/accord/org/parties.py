"""A case's parties as the org chart sees them: who stands behind each agent, and which
department the case belongs to (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from typing_extensions import TypedDict  # pydantic reads it on Python 3.11

from accord.org.chart import OrgChart


def shared_department(parties: Sequence[str], org: OrgChart | None) -> str | None:
    """The department every party belongs to; None when they span departments (or any party,
    or the chart, is missing)."""
    if org is None or not parties or any(a not in org for a in parties):
        return None
    departments = {org.agent(a).department for a in parties}
    return departments.pop() if len(departments) == 1 else None


def department_of_agents(parties: Sequence[str], org: OrgChart | None) -> str | None:
    """The parties' shared department, else (two parties) their lowest common manager's,
    else None: the department whose policy applies."""
    shared = shared_department(parties, org)
    if shared is not None or org is None or len(parties) != 2:
        return shared
    if any(a not in org for a in parties):
        return None
    manager = org.lowest_common_manager(parties[0], parties[1])
    return manager.department if manager is not None else None


class PartyIds(TypedDict):
    """A complainant or respondent (R5): the agent and who stands behind it."""

    agent_id: str
    principal_id: str
    organization_id: str


def party(agent: str, org: OrgChart | None) -> PartyIds:
    """``agent`` with its principal and organisation from ``org`` (``unknown`` when the chart
    does not name it)."""
    if org is not None and agent in org:
        member = org.agent(agent)
        return {
            "agent_id": agent,
            "principal_id": member.principal_id,
            "organization_id": member.organization_id,
        }
    return {"agent_id": agent, "principal_id": "unknown", "organization_id": "unknown"}
