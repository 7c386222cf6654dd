"""What a panel is asked: the dispute's question, each party's position, and the resolution
put to the vote (which party it favours and what it says). Members vote approve or dissent on
that resolution, identified by :attr:`PanelQuestion.resolution_hash`."""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.crypto.hashing import content_hash


class PartyPosition(BaseModel):
    """One party's argument, as the panel reads it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str = Field(min_length=1)
    argument: str


class ProposedResolution(BaseModel):
    """The resolution put to the panel: the party it finds for, and its terms."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    favours: str = Field(min_length=1)
    description: str = Field(min_length=1)


class PanelQuestion(BaseModel):
    """The case before the panel."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str
    question: str = Field(min_length=1)
    positions: tuple[PartyPosition, ...] = Field(min_length=2)
    proposal: ProposedResolution

    @model_validator(mode="after")
    def _proposal_favours_a_party(self) -> Self:
        ids = [p.agent_id for p in self.positions]
        if len(set(ids)) != len(ids):
            raise ValueError("each party states one position")
        if self.proposal.favours not in ids:
            raise ValueError("the proposed resolution favours one of the parties")
        return self

    @property
    def resolution_hash(self) -> str:
        """``sha256:`` of the canonical ``{dispute_id, favours, description}``: what votes name."""
        return content_hash(
            {
                "dispute_id": self.dispute_id,
                "favours": self.proposal.favours,
                "description": self.proposal.description,
            }
        )
