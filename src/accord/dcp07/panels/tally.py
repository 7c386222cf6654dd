"""Counting a panel's votes into its decision (R14, R15, R19).

* ``approve`` votes >= M: ``binding_resolution`` for a binding panel, ``recommended_resolution``
  for an advisory one (the policy marks a panel advisory; see ``formation``);
* otherwise ``split_decision``, which escalates to ``human_appeal`` automatically (R15).

A member who did not vote by the deadline counts neither for nor against and is listed in
``absent``. The tally is taken once every member has voted or the deadline has passed
(``panels.tally_too_early`` before), so every dissent is in the record (R35).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, model_validator

from accord.dcp07.panels.ballot import PanelBallot
from accord.dcp07.panels.formation import PanelMode
from accord.dcp07.panels.refusals import PanelRefused
from accord.dcp07.panels.threshold import PanelThreshold
from accord.dcp07.panels.votes import VoteChoice

HUMAN_APPEAL = "human_appeal"


class PanelDecision(StrEnum):
    """R15's three panel decision types."""

    BINDING = "binding_resolution"
    RECOMMENDED = "recommended_resolution"
    SPLIT = "split_decision"


class MemberVote(BaseModel):
    """A member's vote as the §6 ``panel.members[]`` entry carries it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str
    vote: VoteChoice
    reasoning_hash: str


class PanelTally(BaseModel):
    """The decision, the counts, every member's vote and who did not vote."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str
    panel_id: str
    resolution_hash: str
    decision: PanelDecision
    threshold: PanelThreshold
    votes_for: int
    votes_against: int
    members: tuple[MemberVote, ...]
    absent: tuple[str, ...]
    escalates_to: str | None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.votes_for != sum(m.vote == "approve" for m in self.members):
            raise ValueError("votes_for counts the approvals")
        if self.votes_against != sum(m.vote == "dissent" for m in self.members):
            raise ValueError("votes_against counts the dissents")
        if (self.decision is PanelDecision.SPLIT) != (self.votes_for < self.threshold.m):
            raise ValueError("a split decision is exactly one with fewer than m approvals")
        if self.escalates_to != (HUMAN_APPEAL if self.decision is PanelDecision.SPLIT else None):
            raise ValueError("only a split decision escalates, to human_appeal")
        return self

    def panel_section(self) -> dict[str, Any]:
        """The §6 resolution's ``panel`` object (R19)."""
        return {
            "members": [m.model_dump() for m in self.members],
            "threshold": {"m": self.threshold.m, "n": self.threshold.n},
            "votes_for": self.votes_for,
            "votes_against": self.votes_against,
        }


def tally(ballot: PanelBallot, *, now: datetime) -> PanelTally:
    """The panel's decision (see the module docstring)."""
    formation = ballot.formation
    if ballot.outstanding and now <= formation.vote_deadline:
        raise PanelRefused(
            f"{len(ballot.outstanding)} member(s) may still vote until "
            f"{formation.vote_deadline.isoformat()}",
            code="panels.tally_too_early",
            requirement="R14",
            field="now",
            rule="votes are counted once every member voted or the deadline passed",
            outstanding=list(ballot.outstanding),
        )
    by_member = {v.agent_id: v for v in ballot.votes}
    members = tuple(
        MemberVote(agent_id=a, vote=by_member[a].vote, reasoning_hash=by_member[a].reasoning_hash)
        for a in formation.member_ids
        if a in by_member
    )
    votes_for = sum(m.vote == "approve" for m in members)
    if votes_for >= formation.threshold.m:
        decision = (
            PanelDecision.BINDING
            if formation.mode is PanelMode.BINDING
            else PanelDecision.RECOMMENDED
        )
    else:
        decision = PanelDecision.SPLIT
    return PanelTally(
        dispute_id=formation.dispute_id,
        panel_id=formation.panel_id,
        resolution_hash=ballot.resolution_hash,
        decision=decision,
        threshold=formation.threshold,
        votes_for=votes_for,
        votes_against=len(members) - votes_for,
        members=members,
        absent=ballot.outstanding,
        escalates_to=HUMAN_APPEAL if decision is PanelDecision.SPLIT else None,
    )
