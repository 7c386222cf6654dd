"""Where the parties sit in the hierarchy: one branch or several, and who manages them all."""

from __future__ import annotations

from collections.abc import Sequence

from accord.org import OrgChart


def spans_branches(org: OrgChart, parties: Sequence[str]) -> bool:
    """True when the parties' departments lie in different branches (a cross-department
    conflict: seniority does not decide it, their lowest common manager does)."""
    first = parties[0]
    return not all(org.same_branch(first, other) for other in parties[1:])


def common_manager(org: OrgChart, parties: Sequence[str]) -> str | None:
    """The lowest member who manages every party and is none of them (strict, like the org's)."""
    others = [{agent.agent_id for agent in org.manager_chain(party)} for party in parties[1:]]
    for manager in org.manager_chain(parties[0]):
        if manager.agent_id not in parties and all(manager.agent_id in o for o in others):
            return manager.agent_id
    return None
