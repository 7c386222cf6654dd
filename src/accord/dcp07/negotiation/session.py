"""R7's tier 1 as a pure state machine: acknowledgements, proposals, counter-evidence and
acceptances between a dispute's parties.

* Every party may act only before the tier's deadline (inclusive); a step after it is refused
  (R9: failed negotiation escalates, it does not carry on).
* A party proposes terms; the proposer counts as accepting its own proposal.
* A party accepts a known proposal once; accepting an unknown proposal, accepting twice, or
  acting after the dispute resolved is refused (R7).
* A proposal every party has accepted resolves the negotiation: :attr:`agreement` names it,
  and no step is accepted afterwards. Writing the §6 resolution record from it is the job of
  the lifecycle and the record builder; this module only decides *whether* it resolved.

Each step returns the next state, or raises ``NegotiationRefused`` and leaves this one alone.
"""

from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum
from typing import Self

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

from accord.dcp07.negotiation.refusals import NegotiationRefused
from accord.ids import new_id
from accord.values import revised

_CONTENT_HASH = re.compile(r"^sha256:[0-9a-f]{64}$")


class NegotiationStatus(StrEnum):
    """Where tier 1 stands: still talking, agreed, or out of time (escalate, R9)."""

    NEGOTIATING = "negotiating"
    RESOLVED = "resolved"
    EXPIRED = "expired"


class Proposal(BaseModel):
    """Terms a party puts to the others; ``responds_to`` names the proposal it counters."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    proposal_id: str = Field(min_length=1)
    proposed_by: str
    terms: str = Field(min_length=1)
    responds_to: str | None = None
    proposed_at: datetime


class CounterEvidence(BaseModel):
    """Evidence a party answers with; content-addressed (``sha256:<hex>``, R33)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    evidence_id: str = Field(min_length=1)
    submitted_by: str
    content_hash: str = Field(pattern=_CONTENT_HASH.pattern)
    description: str
    answers: str | None = None
    submitted_at: datetime


class Acceptance(BaseModel):
    """A party's acceptance of one proposal."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str
    proposal_id: str
    accepted_at: datetime


class Agreement(BaseModel):
    """The proposal every party accepted, who accepted it (all parties) and when it resolved."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    proposal: Proposal
    accepted_by: tuple[str, ...]
    resolved_at: datetime


class Negotiation(BaseModel):
    """One dispute's tier-1 negotiation. ``parties`` = complainant first, then respondents."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str = Field(min_length=1)
    parties: tuple[str, ...]
    deadline: AwareDatetime
    acknowledged: tuple[str, ...] = ()
    proposals: tuple[Proposal, ...] = ()
    counter_evidence: tuple[CounterEvidence, ...] = ()
    acceptances: tuple[Acceptance, ...] = ()

    @model_validator(mode="after")
    def _parties(self) -> Self:
        if len(self.parties) < 2 or len(set(self.parties)) != len(self.parties):
            raise ValueError("a negotiation needs at least two distinct parties")
        return self

    @property
    def complainant(self) -> str:
        return self.parties[0]

    @property
    def respondents(self) -> tuple[str, ...]:
        return self.parties[1:]

    # -- reading ----------------------------------------------------------------------------

    def accepted_by(self, proposal_id: str) -> tuple[str, ...]:
        """Parties that accepted ``proposal_id`` (its proposer first), in order."""
        return tuple(a.agent_id for a in self.acceptances if a.proposal_id == proposal_id)

    @property
    def agreement(self) -> Agreement | None:
        """The first proposal every party accepted, if any."""
        for proposal in self.proposals:
            accepted = [a for a in self.acceptances if a.proposal_id == proposal.proposal_id]
            if {a.agent_id for a in accepted} == set(self.parties):
                return Agreement(
                    proposal=proposal,
                    accepted_by=tuple(a.agent_id for a in accepted),
                    resolved_at=max(a.accepted_at for a in accepted),
                )
        return None

    def status(self, now: datetime) -> NegotiationStatus:
        """Resolved once a proposal has every party's acceptance; expired after the deadline."""
        if self.agreement is not None:
            return NegotiationStatus.RESOLVED
        if now > self.deadline:
            return NegotiationStatus.EXPIRED
        return NegotiationStatus.NEGOTIATING

    # -- steps ------------------------------------------------------------------------------

    def acknowledge(self, agent_id: str, *, at: datetime) -> Negotiation:
        """A respondent acknowledges receipt of the dispute record (once)."""
        self._may_act(agent_id, at)
        if agent_id == self.complainant:
            raise _refused(
                "the complainant opened the dispute; respondents acknowledge it",
                "negotiation.complainant_acknowledges",
                "agent_id",
                "only respondents acknowledge",
                agent_id=agent_id,
            )
        if agent_id in self.acknowledged:
            raise _refused(
                f"{agent_id} has already acknowledged",
                "negotiation.already_acknowledged",
                "agent_id",
                "each respondent acknowledges once",
                agent_id=agent_id,
            )
        return revised(self, acknowledged=(*self.acknowledged, agent_id))

    def propose(
        self,
        agent_id: str,
        terms: str,
        *,
        at: datetime,
        responds_to: str | None = None,
        proposal_id: str | None = None,
    ) -> Negotiation:
        """``agent_id`` proposes ``terms`` (and so accepts them)."""
        self._may_act(agent_id, at)
        if not terms.strip():
            raise _refused(
                "a proposal states its terms",
                "negotiation.empty_terms",
                "terms",
                "non-empty terms",
                agent_id=agent_id,
            )
        if responds_to is not None:
            self._proposal(responds_to, agent_id)
        chosen = proposal_id or new_id("prop", at)
        if any(p.proposal_id == chosen for p in self.proposals):
            raise _refused(
                f"proposal id {chosen} is already taken",
                "negotiation.duplicate_proposal",
                "proposal_id",
                "proposal ids are unique within a negotiation",
                proposal_id=chosen,
            )
        proposal = Proposal(
            proposal_id=chosen,
            proposed_by=agent_id,
            terms=terms,
            responds_to=responds_to,
            proposed_at=at,
        )
        accepts = Acceptance(agent_id=agent_id, proposal_id=chosen, accepted_at=at)
        return revised(
            self, proposals=(*self.proposals, proposal), acceptances=(*self.acceptances, accepts)
        )

    def submit_counter_evidence(
        self,
        agent_id: str,
        *,
        content_hash: str,
        description: str,
        at: datetime,
        answers: str | None = None,
        evidence_id: str | None = None,
    ) -> Negotiation:
        """``agent_id`` answers with evidence, addressed by its content hash."""
        self._may_act(agent_id, at)
        if not _CONTENT_HASH.fullmatch(content_hash):
            raise NegotiationRefused(
                "counter-evidence is content-addressed: sha256: followed by 64 hex digits",
                code="negotiation.bad_content_hash",
                requirement="R33",
                field="content_hash",
                rule="sha256:<64 lower-case hex>",
                agent_id=agent_id,
            )
        if answers is not None:
            self._proposal(answers, agent_id)
        item = CounterEvidence(
            evidence_id=evidence_id or new_id("evid", at),
            submitted_by=agent_id,
            content_hash=content_hash,
            description=description,
            answers=answers,
            submitted_at=at,
        )
        return revised(self, counter_evidence=(*self.counter_evidence, item))

    def accept(self, agent_id: str, proposal_id: str, *, at: datetime) -> Negotiation:
        """``agent_id`` accepts ``proposal_id`` (a known proposal, once)."""
        self._may_act(agent_id, at)
        self._proposal(proposal_id, agent_id)
        if agent_id in self.accepted_by(proposal_id):
            raise _refused(
                f"{agent_id} has already accepted {proposal_id}",
                "negotiation.already_accepted",
                "agent_id",
                "a party accepts a proposal once (a proposer has accepted its own)",
                agent_id=agent_id,
                proposal_id=proposal_id,
            )
        accepts = Acceptance(agent_id=agent_id, proposal_id=proposal_id, accepted_at=at)
        return revised(self, acceptances=(*self.acceptances, accepts))

    # -- checks -----------------------------------------------------------------------------

    def _may_act(self, agent_id: str, at: datetime) -> None:
        if agent_id not in self.parties:
            raise _refused(
                f"{agent_id} is not a party to {self.dispute_id}",
                "negotiation.not_a_party",
                "agent_id",
                "only the dispute's parties negotiate",
                agent_id=agent_id,
            )
        if self.agreement is not None:
            raise NegotiationRefused(  # resolved is a final status (R6), not a tier-1 rule
                f"{self.dispute_id} is already resolved by an accepted proposal",
                code="negotiation.resolved",
                requirement="R6",
                field="agent_id",
                rule="a resolved negotiation takes no further step",
                agent_id=agent_id,
            )
        if at > self.deadline:
            raise NegotiationRefused(
                f"the negotiation deadline {self.deadline.isoformat()} has passed",
                code="negotiation.deadline_passed",
                requirement="R9",
                field="at",
                rule="tier-1 steps are accepted up to the deadline; afterwards it escalates",
                agent_id=agent_id,
            )

    def _proposal(self, proposal_id: str, agent_id: str) -> Proposal:
        for proposal in self.proposals:
            if proposal.proposal_id == proposal_id:
                return proposal
        raise _refused(
            f"no proposal {proposal_id} in {self.dispute_id}",
            "negotiation.unknown_proposal",
            "proposal_id",
            "a party answers or accepts a proposal that was made",
            agent_id=agent_id,
            proposal_id=proposal_id,
        )


def _refused(
    message: str, code: str, field: str, rule: str, **context: object
) -> NegotiationRefused:
    return NegotiationRefused(
        message, code=code, requirement="R7", field=field, rule=rule, **context
    )
