"""A dispute party as panels see it: the agent, its responsible principal and organisation
(the R5 party triple)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Party(BaseModel):
    """One complainant or respondent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str = Field(min_length=1)
    principal_id: str = Field(min_length=1)
    organization_id: str = Field(min_length=1)
