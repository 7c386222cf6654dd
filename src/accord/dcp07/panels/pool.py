"""The pre-approved arbitrator pool (R10) and its members.

Decision on R35 ("the arbitrator pool spans organisations"): a pool whose members all come
from one organisation is **refused** (``panels.single_organization_pool``). An operator with a
single organisation may build one anyway by saying so (``single_organization=True``): the pool
then carries that flag, every panel formed from it records ``pool_spans_organizations=False``,
and the record shows the weaker collusion guard to anyone who reads it.

A pool also needs at least three members (R10: no panel has fewer), with distinct agent ids.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from accord.dcp07.panels.refusals import PanelRefused
from accord.org.agent import LifecycleState

MIN_PANEL_SIZE = 3


class ArbitratorKind(StrEnum):
    """An arbitrator votes through a language model (``agent``) or the approval queue
    (``human``)."""

    AGENT = "agent"
    HUMAN = "human"


class PoolMember(BaseModel):
    """One pre-approved arbitrator: identity, organisation, DCP-05 vitality and lifecycle."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str = Field(min_length=1)
    principal_id: str = Field(min_length=1)
    organization_id: str = Field(min_length=1)
    vitality: int = Field(ge=0, le=1000, strict=True)
    lifecycle_state: LifecycleState
    kind: ArbitratorKind = ArbitratorKind.AGENT


class ArbitratorPool(BaseModel):
    """The pool, members sorted by agent id. Build it with :meth:`of`, which refuses a pool
    that breaks R10 or R35."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    members: tuple[PoolMember, ...]
    single_organization: bool = False

    @classmethod
    def of(
        cls, members: Iterable[PoolMember], *, single_organization: bool = False
    ) -> ArbitratorPool:
        """The pool of ``members``; see the module docstring for what is refused."""
        listed = sorted(members, key=lambda m: m.agent_id)
        ids = [m.agent_id for m in listed]
        duplicates = sorted({a for a in ids if ids.count(a) > 1})
        if duplicates:
            raise PanelRefused(
                f"the pool lists {', '.join(duplicates)} more than once",
                code="panels.duplicate_pool_member",
                requirement="R10",
                field="members",
                rule="each arbitrator is in the pool once",
                agent_ids=duplicates,
            )
        if len(listed) < MIN_PANEL_SIZE:
            raise PanelRefused(
                f"a pool of {len(listed)} cannot seat a panel of {MIN_PANEL_SIZE}",
                code="panels.pool_too_small",
                requirement="R10",
                field="members",
                rule=f"at least {MIN_PANEL_SIZE} arbitrators",
            )
        organizations = {m.organization_id for m in listed}
        if len(organizations) < 2 and not single_organization:
            raise PanelRefused(
                f"every arbitrator in the pool belongs to {next(iter(organizations))}",
                code="panels.single_organization_pool",
                requirement="R35",
                field="members",
                rule="the arbitrator pool spans organisations (or is declared "
                "single_organization, which every panel then records)",
            )
        return cls(members=tuple(listed), single_organization=len(organizations) < 2)

    @property
    def spans_organizations(self) -> bool:
        """True when members come from two or more organisations (R35)."""
        return len({m.organization_id for m in self.members}) > 1

    def __contains__(self, agent_id: object) -> bool:
        return any(m.agent_id == agent_id for m in self.members)

    def member(self, agent_id: str) -> PoolMember:
        """The member with this id; ``panels.not_in_pool`` (R10) otherwise."""
        for member in self.members:
            if member.agent_id == agent_id:
                return member
        raise PanelRefused(
            f"{agent_id} is not in the pre-approved arbitrator pool",
            code="panels.not_in_pool",
            requirement="R10",
            field="agent_id",
            rule="panel candidates come from the pre-approved pool",
            agent_id=agent_id,
        )
