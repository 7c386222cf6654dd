"""Which department a case belongs to, from its parties and the org chart (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from accord.org import OrgChart


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
