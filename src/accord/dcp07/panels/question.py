"""What a panel is asked: the dispute's question, each party's position, and the proposed §6
resolution put to the vote (R14, R19): which party it favours, what it says, the actions it
requires (agent, action, deadline), how and by when compliance is checked, and the precedents
it applies or departs from (R25). Members vote approve or dissent on that text, identified by
:attr:`PanelQuestion.resolution_hash`: the hash of the whole proposal, so a vote binds the
actions and deadlines it approved."""

from __future__ import annotations

from datetime import datetime
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.crypto.hashing import content_hash
from accord.dcp07.fields import Identifier, Timestamp
from accord.dcp07.resolution_record import PrecedentApplication, RequiredAction

COMPLIANCE_METHOD = "audit_chain_review"
"""R20's usual method, and the one Accord checks."""
MAX_ACTIONS = 32
MAX_PRECEDENTS = 32


class PartyPosition(BaseModel):
    """One party's argument, as the panel reads it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str = Field(min_length=1)
    argument: str


class ProposedResolution(BaseModel):
    """The §6 resolution put to the panel: the party it finds for, its terms (the outcome's
    ``description``), the outcome's ``actions_required`` and compliance method and deadline,
    and ``precedents_applied`` (departures reasoned, R25). ``proposed_by`` is the member who
    put it (None: the text the panel was seated with)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    favours: str = Field(min_length=1)
    """The party the resolution finds for."""
    description: str = Field(min_length=1)
    """Its terms: the outcome's description."""
    actions_required: tuple[RequiredAction, ...] = Field(default=(), max_length=MAX_ACTIONS)
    """What each party must do, and by when (at most 32 actions)."""
    compliance_verification_method: Identifier = COMPLIANCE_METHOD
    """How compliance is checked (R20)."""
    compliance_deadline: Timestamp | None = None
    """By when compliance is checked: no earlier than any action's deadline."""
    precedents_applied: tuple[PrecedentApplication, ...] = Field(
        default=(), max_length=MAX_PRECEDENTS
    )
    """The precedents it applies or departs from (at most 32)."""
    proposed_by: str | None = None
    """The member who proposed it; null: the text the panel was seated with."""

    @model_validator(mode="after")
    def _compliance_deadline_covers_the_actions(self) -> Self:
        if self.compliance_deadline is not None and any(
            instant(a.deadline) > instant(self.compliance_deadline)
            for a in self.actions_required
        ):
            raise ValueError("compliance_deadline is at or after every action's deadline")
        return self


def instant(timestamp: str) -> datetime:
    """The moment a §6 ``Timestamp`` names."""
    return datetime.fromisoformat(timestamp.replace("Z", "+00:00"))


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
        if any(a.agent_id not in ids for a in self.proposal.actions_required):
            raise ValueError("required actions are owed by parties of the dispute (R20)")
        return self

    @property
    def resolution_hash(self) -> str:
        """``sha256:`` of the canonical ``{dispute_id, **proposal}``, fields at their default
        left out (a bare proposal hashes ``{dispute_id, favours, description}``): what votes
        name."""
        return content_hash(
            {
                "dispute_id": self.dispute_id,
                **self.proposal.model_dump(mode="json", exclude_defaults=True),
            }
        )
