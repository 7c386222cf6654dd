"""Who a dispute is between: complainant and respondents (R5), and an objecting party (R27)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from accord.dcp07.fields import Identifier


class Party(BaseModel):
    """A party to a dispute: the agent, the principal it acts for, and their organisation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: Identifier
    principal_id: Identifier
    organization_id: Identifier


class ObjectingParty(BaseModel):
    """The party filing an objection: the agent and its principal (§8.2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: Identifier
    principal_id: Identifier
