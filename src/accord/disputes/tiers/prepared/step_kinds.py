"""The tier steps an agent may prepare and then sign with its own key, as validated data.

Each kind is a frozen model of that step's arguments (bounded like the step's own checks),
with the key role that performs it and :meth:`run`, the one call of the tier service it
stands for. ``PreparedStepArgs`` is their union, told apart by ``step``.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from accord.crypto import Signer
from accord.disputes.dcp.fields import SHA256_PATTERN
from accord.disputes.dcp.resolution_record import ResolutionRecord
from accord.disputes.negotiation import CoinFlip, Negotiation, Proposal
from accord.disputes.panels import Nomination, PanelTally, PanelVote
from accord.disputes.tiers.arbitration import MAX_NOMINEES, Arbitration
from accord.disputes.tiers.negotiating import MAX_CHOICE, Negotiating, NegotiationStep
from accord.disputes.tiers.tier_context import MAX_TEXT
from accord.ledger import KeyRole

_ID = r"^[^\s\x00]+$"
Id = Annotated[str, Field(min_length=1, max_length=256, pattern=_ID)]
_NO_NUL = r"^[^\x00]*$"
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT, pattern=_NO_NUL)]
Sha256 = Annotated[str, Field(pattern=SHA256_PATTERN)]


class Nominations(BaseModel):
    """The nominations a ``nominate`` step added (one the same party already made is not
    repeated)."""

    model_config = ConfigDict(frozen=True)

    items: tuple[Nomination, ...]


StepResult = (
    Proposal
    | NegotiationStep
    | Negotiation
    | CoinFlip
    | Nominations
    | PanelVote
    | PanelTally
    | ResolutionRecord
)
"""What a completed step answers: the tier call's own answer."""


class _Step(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    role: ClassVar[KeyRole] = "agent"
    """The key role that performs the step."""

    @abstractmethod
    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        """The tier call this step stands for, signed through ``signer``."""


class ProposeStep(_Step):
    """``Negotiating.propose``: the agent proposes ``terms`` (and accepts them)."""

    step: Literal["propose"]
    terms: Text
    responds_to: Id | None = None

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return negotiation.propose(dispute_id, signer, self.terms, responds_to=self.responds_to)


class AcceptStep(_Step):
    """``Negotiating.accept``: the agent accepts ``proposal_id``."""

    step: Literal["accept"]
    proposal_id: Id

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return negotiation.accept(dispute_id, signer, self.proposal_id)


class CounterEvidenceStep(_Step):
    """``Negotiating.counter_evidence``: evidence addressed by its content hash."""

    step: Literal["counter_evidence"]
    content_hash: Sha256
    description: Text
    answers: Id | None = None

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return negotiation.counter_evidence(
            dispute_id,
            signer,
            content_hash=self.content_hash,
            description=self.description,
            answers=self.answers,
        )


class CommitStep(_Step):
    """``Negotiating.commit``: the coin-flip commitment."""

    step: Literal["commit"]
    commitment: Sha256

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return negotiation.commit(dispute_id, signer, self.commitment)


class RevealStep(_Step):
    """``Negotiating.reveal``: the nonce (hex) and choice behind the commitment."""

    step: Literal["reveal"]
    nonce_hex: Annotated[str, Field(min_length=64, max_length=256, pattern=r"^(?:[0-9a-f]{2})+$")]
    choice: Annotated[str, Field(min_length=1, max_length=MAX_CHOICE, pattern=_NO_NUL)]

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return negotiation.reveal(dispute_id, signer, bytes.fromhex(self.nonce_hex), self.choice)


class NominateStep(_Step):
    """``Arbitration.nominate``: pool members put forward (signs nothing: no payload)."""

    step: Literal["nominate"]
    agent_ids: Annotated[tuple[Id, ...], Field(min_length=1, max_length=MAX_NOMINEES)]

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return Nominations(items=arbitration.nominate(dispute_id, signer, self.agent_ids))


class VoteStep(_Step):
    """``Arbitration.vote``: a panel member's vote (its arbitrator key)."""

    role: ClassVar[KeyRole] = "arbitrator"
    step: Literal["vote"]
    vote: Literal["approve", "dissent"]
    reasoning: Text

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return arbitration.vote(dispute_id, signer, self.vote, self.reasoning)


class TallyStep(_Step):
    """``Arbitration.tally``: a member closes the vote and signs the decided record."""

    role: ClassVar[KeyRole] = "arbitrator"
    step: Literal["tally"]

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return arbitration.tally(dispute_id, signer)


class SignResolutionStep(_Step):
    """``Arbitration.sign_resolution``: a member signs the panel's decided §6 record."""

    role: ClassVar[KeyRole] = "arbitrator"
    step: Literal["sign_resolution"]

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return arbitration.sign_resolution(dispute_id, signer)


PreparedStepArgs = Annotated[
    ProposeStep
    | AcceptStep
    | CounterEvidenceStep
    | CommitStep
    | RevealStep
    | NominateStep
    | VoteStep
    | TallyStep
    | SignResolutionStep,
    Field(discriminator="step"),
]
"""One step an agent prepares, its kind named by ``step``."""
