"""The org chart: who manages whom, which department is where, and facts derived from both.

Everything here is a fact about the organisation, never a judgement: strategies in
``accord.ladder``, ``accord.cases`` and ``accord.dcp07`` decide what the facts mean.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from accord.errors import NotFound, ValidationError
from accord.org._checks import check_agents, check_departments
from accord.org._forest import Forest
from accord.org._names import NAME_RULE, is_name
from accord.org.agent import Agent, LifecycleState
from accord.org.department import Department
from accord.org.seniority import SeniorityScale

PANEL_MIN_VITALITY = 600
"""R12: panel members need vitality strictly above this (DCP-05 scale 0-1000)."""


class OrgChart:
    """An immutable, validated org chart of one organization.

    Construction raises ``accord.errors.ValidationError`` for the first broken rule (duplicate
    ids, dangling manager or parent, management or department cycle, undefined department,
    unknown seniority, an agent of another organization); its context names ``collection``,
    ``index``, ``field`` and ``rule``. Lookups of unknown names raise ``accord.errors.NotFound``.
    Parent maps and depths are precomputed, so every query costs O(depth of the hierarchy).
    """

    __slots__ = (
        "_agents",
        "_by_id",
        "_departments",
        "_departments_by_name",
        "_management",
        "_organization_id",
        "_seniority",
        "_tree",
    )

    def __init__(
        self,
        organization_id: str,
        seniority: SeniorityScale,
        departments: Iterable[Department],
        agents: Iterable[Agent],
    ) -> None:
        if not is_name(organization_id):
            raise ValidationError(
                f"organization_id {NAME_RULE}",
                code="org.invalid_organization",
                field="organization_id",
                rule=NAME_RULE,
            )
        self._organization_id = organization_id
        self._seniority = seniority
        self._departments = tuple(departments)
        self._agents = tuple(agents)
        check_departments(self._departments)
        self._departments_by_name = {d.name: d for d in self._departments}
        check_agents(organization_id, seniority, self._departments_by_name, self._agents)
        self._by_id = {agent.agent_id: agent for agent in self._agents}
        self._tree = Forest({d.name: d.parent for d in self._departments})
        self._management = Forest({a.agent_id: a.manager for a in self._agents})

    def __repr__(self) -> str:
        return (
            f"OrgChart(organization_id={self._organization_id!r}, "
            f"departments={len(self._departments)}, agents={len(self._agents)})"
        )

    # -- members -----------------------------------------------------------------------

    @property
    def organization_id(self) -> str:
        """The organization every member belongs to."""
        return self._organization_id

    @property
    def seniority(self) -> SeniorityScale:
        """The seniority scale ranks are taken from."""
        return self._seniority

    def __contains__(self, agent_id: object) -> bool:
        return agent_id in self._by_id

    def __len__(self) -> int:
        return len(self._agents)

    def __iter__(self) -> Iterator[Agent]:
        return iter(self._agents)

    def agents(self) -> tuple[Agent, ...]:
        """Every member, in the order given."""
        return self._agents

    def agent(self, agent_id: str) -> Agent:
        """The member with this id; ``NotFound`` (``org.unknown_agent``) otherwise."""
        try:
            return self._by_id[agent_id]
        except (KeyError, TypeError):
            raise NotFound(
                f"unknown agent {agent_id!r} in organization {self._organization_id!r}",
                code="org.unknown_agent",
                agent_id=agent_id,
            ) from None

    def rank_of(self, agent_id: str) -> int:
        """The member's seniority rank, 0 for the lowest level."""
        return self._seniority.rank(self.agent(agent_id).seniority)

    def outranks(self, a: str, b: str) -> bool:
        """True when ``a``'s seniority is strictly higher than ``b``'s."""
        return self.rank_of(a) > self.rank_of(b)

    # -- management --------------------------------------------------------------------

    def manager_chain(self, agent_id: str) -> tuple[Agent, ...]:
        """The member's managers, direct manager first, up to the top of the hierarchy."""
        self.agent(agent_id)
        return tuple(self._by_id[m] for m in self._management.ancestors(agent_id))

    def reports_to(self, a: str, b: str) -> bool:
        """True when ``b`` manages ``a`` directly or transitively (never for ``a == b``)."""
        self.agent(a)
        self.agent(b)
        return self._management.is_strict_ancestor(b, a)

    def lowest_common_manager(self, a: str, b: str) -> Agent | None:
        """The lowest member who manages both ``a`` and ``b`` and is neither of them.

        A party may not judge its own case: when ``a`` manages ``b``, the answer is ``a``'s
        own manager, not ``a``. None when no member manages both (separate hierarchies, or a
        party at the top).
        """
        above_a = self.agent(a).manager
        above_b = self.agent(b).manager
        if above_a is None or above_b is None:
            return None
        common = self._management.lowest_common_ancestor(above_a, above_b)
        return None if common is None else self._by_id[common]

    # -- departments -------------------------------------------------------------------

    def departments(self) -> tuple[Department, ...]:
        """Every department, in the order given."""
        return self._departments

    def department(self, name: str) -> Department:
        """The department with this name; ``NotFound`` (``org.unknown_department``) otherwise."""
        try:
            return self._departments_by_name[name]
        except (KeyError, TypeError):
            raise NotFound(
                f"unknown department {name!r} in organization {self._organization_id!r}",
                code="org.unknown_department",
                department=name,
            ) from None

    def department_chain(self, name: str) -> tuple[Department, ...]:
        """The department itself, then its parent, and so on up to its root."""
        self.department(name)
        names = (name, *self._tree.ancestors(name))
        return tuple(self._departments_by_name[n] for n in names)

    def branch_of(self, name: str) -> Department:
        """The department's branch: its ancestor-or-self that is a child of a root.

        A root department is its own branch. With ``executive > engineering > backend``,
        the branch of ``backend`` and of ``engineering`` is ``engineering``, and the branch
        of ``executive`` is ``executive``.
        """
        self.department(name)
        return self._departments_by_name[self._tree.branch(name)]

    def same_department(self, a: str, b: str) -> bool:
        """True when both members belong to exactly the same department."""
        return self.agent(a).department == self.agent(b).department

    def same_branch(self, a: str, b: str) -> bool:
        """True when both members' departments lie in the same branch (see ``branch_of``).

        Conflicts between members in different branches are cross-department conflicts.
        """
        branch_a = self._tree.branch(self.agent(a).department)
        return branch_a == self._tree.branch(self.agent(b).department)

    # -- independence and panels -------------------------------------------------------

    def independence_conflicts(
        self, candidate: str, parties: Iterable[str], *, shared_principal_forbidden: bool = True
    ) -> tuple[str, ...]:
        """Why ``candidate`` is not independent of ``parties``, one sentence per reason.

        Empty when independent. The facts checked: the candidate is not a party; does not
        share a responsible principal with a party (unless allowed); and is neither above
        nor below a party in the management hierarchy. Dispute history and recent
        interactions (R11, R32) are checked by ``accord.dcp07.panels``, not here.
        """
        if isinstance(parties, str):
            raise ValidationError(
                "parties must be a collection of agent ids, not a single string",
                code="org.invalid_parties",
                field="parties",
                rule="must be a collection of agent ids",
            )
        party_ids = tuple(dict.fromkeys(parties))
        if not party_ids:
            raise ValidationError(
                "parties must name at least one agent",
                code="org.invalid_parties",
                field="parties",
                rule="must name at least one agent",
            )
        judge = self.agent(candidate)
        reasons: list[str] = []
        for party_id in party_ids:
            party = self.agent(party_id)
            if party_id == candidate:
                reasons.append(f"{candidate} is a party")
                continue
            if shared_principal_forbidden and party.principal_id == judge.principal_id:
                reasons.append(f"{candidate} shares principal {judge.principal_id} with {party_id}")
            if self._management.is_strict_ancestor(candidate, party_id):
                reasons.append(f"{candidate} manages {party_id}")
            if self._management.is_strict_ancestor(party_id, candidate):
                reasons.append(f"{candidate} reports to {party_id}")
        return tuple(reasons)

    def is_independent_of(
        self, candidate: str, parties: Iterable[str], *, shared_principal_forbidden: bool = True
    ) -> bool:
        """True when ``independence_conflicts`` finds no reason against the candidate."""
        return not self.independence_conflicts(
            candidate, parties, shared_principal_forbidden=shared_principal_forbidden
        )

    def eligible_for_panel(self, agent_id: str, min_vitality: int = PANEL_MIN_VITALITY) -> bool:
        """R12/R13: the member is ``active`` and its vitality is strictly above ``min_vitality``.

        Says nothing about kind (agent or human) or independence; callers check those.
        """
        if isinstance(min_vitality, bool) or not isinstance(min_vitality, int):
            raise ValidationError(
                "min_vitality must be an integer",
                code="org.invalid_min_vitality",
                field="min_vitality",
                rule="must be an integer from 0 to 1000",
            )
        if not 0 <= min_vitality <= 1000:
            raise ValidationError(
                f"min_vitality must be from 0 to 1000, got {min_vitality}",
                code="org.invalid_min_vitality",
                field="min_vitality",
                rule="must be an integer from 0 to 1000",
            )
        member = self.agent(agent_id)
        return member.lifecycle_state is LifecycleState.ACTIVE and member.vitality > min_vitality
