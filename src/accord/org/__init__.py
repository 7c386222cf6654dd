"""The org room: agents, seniority, departments, the org chart and the facts it implies.

Lowest common managers, same department or branch, who outranks whom, independence of
a candidate from the parties, panel eligibility; and a strict YAML loader for org charts.
"""

from accord.org.agent import Agent, LifecycleState, MemberKind
from accord.org.chart import PANEL_MIN_VITALITY, OrgChart
from accord.org.department import Department
from accord.org.loader import load_org_chart, org_chart_from_mapping
from accord.org.parties import PartyIds, department_of_agents, party, shared_department
from accord.org.seniority import DEFAULT_SENIORITY_LEVELS, SeniorityScale

__all__ = [
    "DEFAULT_SENIORITY_LEVELS",
    "PANEL_MIN_VITALITY",
    "Agent",
    "Department",
    "LifecycleState",
    "MemberKind",
    "OrgChart",
    "PartyIds",
    "SeniorityScale",
    "department_of_agents",
    "load_org_chart",
    "org_chart_from_mapping",
    "party",
    "shared_department",
]
