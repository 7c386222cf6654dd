"""The panel's ballot box: which votes count (R14).

A vote is refused, and the ballot left unchanged, when it is for another panel or another
resolution (R14), comes from someone not on the panel (R14), is a member's second vote (R14),
arrives after the voting deadline (R4: the tier's deadline ends the tier), or its signature is
not the member's under ``DCP-DISPUTE-SIG-v2`` (R36). The deadline is inclusive, and "arrives"
is the injected clock's ``now``, never the vote's own ``cast_at``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from accord.dcp07.panels.formation import PanelFormation
from accord.dcp07.panels.refusals import PanelRefused
from accord.dcp07.panels.votes import PanelVote, verify_vote
from accord.errors import SignatureInvalid
from accord.values import revised


class PanelBallot(BaseModel):
    """The votes accepted so far on ``resolution_hash`` (the resolution put to the panel)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    formation: PanelFormation
    resolution_hash: str = Field(pattern=r"^sha256:[0-9a-f]{64}$")
    votes: tuple[PanelVote, ...] = ()

    def voted(self, agent_id: str) -> bool:
        return any(v.agent_id == agent_id for v in self.votes)

    @property
    def outstanding(self) -> tuple[str, ...]:
        """Members who have not voted yet, in panel order."""
        return tuple(a for a in self.formation.member_ids if not self.voted(a))

    def refuse_unless_open_to(self, agent_id: str, now: datetime) -> None:
        """``PanelRefused`` unless ``agent_id`` may still vote at ``now``: a member, who has
        not voted, before the deadline. These need no vote, so a caller checks them before
        it has one signed (a prepared vote is refused before the agent is asked to sign)."""
        formation = self.formation
        if not formation.is_member(agent_id):
            raise _refused(
                f"{agent_id} is not a member of {formation.panel_id}",
                "panels.not_a_member",
                "R14",
                "agent_id",
                "only panel members vote",
                agent_id,
                formation.panel_id,
            )
        if self.voted(agent_id):
            raise _refused(
                f"{agent_id} has already voted",
                "panels.second_vote",
                "R14",
                "agent_id",
                "each member votes once",
                agent_id,
                formation.panel_id,
            )
        if now > formation.vote_deadline:
            raise _refused(
                f"the voting deadline {formation.vote_deadline.isoformat()} has passed",
                "panels.vote_after_deadline",
                "R4",
                "cast_at",
                "votes are accepted up to the panel's deadline",
                agent_id,
                formation.panel_id,
            )

    def cast(
        self, vote: PanelVote, *, member_keys: Mapping[str, bytes], now: datetime
    ) -> PanelBallot:
        """The ballot with ``vote`` counted, or ``PanelRefused`` (see the module docstring)."""
        formation = self.formation
        if vote.dispute_id != formation.dispute_id or vote.panel_id != formation.panel_id:
            raise _refused(
                f"the vote is for {vote.panel_id} of {vote.dispute_id}, not this panel",
                "panels.wrong_panel",
                "R14",
                "panel_id",
                "a vote names the panel and dispute it is cast in",
                vote.agent_id,
                vote.panel_id,
            )
        self.refuse_unless_open_to(vote.agent_id, now)
        if vote.resolution_hash != self.resolution_hash:
            raise _refused(
                "the vote is on another resolution than the one put to the panel",
                "panels.wrong_resolution",
                "R14",
                "resolution_hash",
                "members vote on the resolution put to the panel",
                vote.agent_id,
                vote.panel_id,
            )
        key = member_keys.get(vote.agent_id)
        if key is None:
            raise _refused(
                f"no public key is known for {vote.agent_id}",
                "panels.unknown_member_key",
                "R36",
                "signature",
                "each vote is verified under its member's key",
                vote.agent_id,
                vote.panel_id,
            )
        try:
            verify_vote(vote, key)
        except SignatureInvalid as error:
            raise _refused(
                f"{vote.agent_id}'s vote signature does not verify: {error.message}",
                "panels.bad_vote_signature",
                "R36",
                "signature",
                "each vote is signed by its member under DCP-DISPUTE-SIG-v2",
                vote.agent_id,
                vote.panel_id,
            ) from error
        return revised(self, votes=(*self.votes, vote))


def _refused(
    message: str,
    code: str,
    requirement: str,
    field: str,
    rule: str,
    agent_id: str,
    panel_id: str,
) -> PanelRefused:
    return PanelRefused(
        message,
        code=code,
        requirement=requirement,
        field=field,
        rule=rule,
        agent_id=agent_id,
        panel_id=panel_id,
    )
