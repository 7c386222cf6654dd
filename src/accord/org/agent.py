"""A member of an agent company: an AI agent or a human, with its place in the org chart."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from accord.org._names import Identifier


class LifecycleState(StrEnum):
    """Where an agent is in its DCP-05 lifecycle; only ``active`` agents may sit on panels."""

    COMMISSIONED = "commissioned"
    ACTIVE = "active"
    DECLINING = "declining"
    SUSPENDED = "suspended"
    DECOMMISSIONED = "decommissioned"


class MemberKind(StrEnum):
    """Whether an org member is an AI agent or a human."""

    AGENT = "agent"
    HUMAN = "human"


class Agent(BaseModel):
    """One org member. ``seniority`` and ``department`` are names checked by the ``OrgChart``.

    Bad field values raise ``pydantic.ValidationError`` whose ``loc`` names the field.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: Identifier
    principal_id: Identifier
    organization_id: Identifier
    department: Identifier
    seniority: Identifier
    manager: Identifier | None = None
    kind: MemberKind = MemberKind.AGENT
    lifecycle_state: LifecycleState = LifecycleState.ACTIVE
    vitality: int = Field(default=1000, ge=0, le=1000, strict=True)
    capabilities: tuple[Identifier, ...] = ()

    @field_validator("manager")
    @classmethod
    def _not_own_manager(cls, manager: str | None, info: ValidationInfo) -> str | None:
        if manager is not None and manager == info.data.get("agent_id"):
            raise ValueError("an agent cannot be its own manager")
        return manager

    @property
    def is_human(self) -> bool:
        """True for human members."""
        return self.kind is MemberKind.HUMAN
