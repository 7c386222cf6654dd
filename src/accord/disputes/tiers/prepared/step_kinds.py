"""The tier steps an agent may prepare and then sign with its own key, as validated data.

Each kind is a frozen model of that step's arguments (bounded like the step's own checks),
with the key role that performs it and :meth:`run`, the one call of the tier service it
stands for. ``PreparedStepArgs`` is their union, told apart by ``step``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, TypeAdapter
from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Connection

from accord.conflicts import Tier
from accord.crypto import Signer
from accord.dcp07.fields import SHA256_PATTERN
from accord.dcp07.negotiation import CoinFlip, Negotiation, Proposal
from accord.dcp07.panels import Nomination, PanelQuestion, PanelTally, PanelVote
from accord.dcp07.panels.question import COMPLIANCE_METHOD, MAX_ACTIONS, MAX_PRECEDENTS
from accord.dcp07.panels.votes import VOTE_RECORD_TYPE, reasoning_hash
from accord.dcp07.refusal import from_pydantic
from accord.dcp07.resolution_record import ResolutionRecord
from accord.disputes.tiers import panel_rows, step_rows
from accord.disputes.tiers.arbitration import (
    ACCEPTANCE_STEP,
    MAX_NOMINEES,
    PROPOSAL_STEP,
    Arbitration,
)
from accord.disputes.tiers.dispute_port import TierDispute
from accord.disputes.tiers.negotiating import MAX_CHOICE, Negotiating, NegotiationStep
from accord.disputes.tiers.panel_rows import SeatedPanel
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

    model_config = ConfigDict(use_attribute_docstrings=True, frozen=True)

    items: tuple[Nomination, ...]
    """The nominations so far."""


StepResult = (
    Proposal
    | NegotiationStep
    | Negotiation
    | CoinFlip
    | Nominations
    | PanelVote
    | PanelTally
    | ResolutionRecord
    | PanelQuestion
    | SeatedPanel
)
"""What a completed step answers: the tier call's own answer."""


class _Step(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    role: ClassVar[KeyRole] = "agent"
    """The key role that performs the step."""
    record_kind: ClassVar[str | None] = None
    """The ``step`` (or ``record_type``) of the record the agent signs for it, if any."""
    resolution_level: ClassVar[Tier | None] = None
    """The level of a §6 resolution the step may have the agent sign, if any."""

    def carried(self) -> dict[str, Any]:
        """The fields of the signed record that must equal the step's own arguments."""
        return {}

    def resolves_with(self) -> str | None:
        """The terms a §6 resolution it signs resolves with, when the arguments say."""
        return None

    def window_end_within(self, conn: Connection, dispute: TierDispute) -> datetime | None:
        """When the step's own window closes (a flip's commit or reveal deadline, a panel's
        vote deadline), read inside the step's transaction; None when only the tier's
        deadline bounds it."""
        return None

    @abstractmethod
    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        """The tier call this step stands for, signed through ``signer``."""


class ProposeStep(_Step):
    """``Negotiating.propose``: the agent proposes ``terms`` (and accepts them)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    step: Literal["propose"]
    """The step's kind: `propose`."""
    terms: Text
    """The terms proposed."""
    responds_to: Id | None = None
    """The proposal these terms counter, if one."""
    record_kind: ClassVar[str | None] = "proposal"
    resolution_level: ClassVar[Tier | None] = Tier.DIRECT_NEGOTIATION

    def carried(self) -> dict[str, Any]:
        return {"terms": self.terms, "responds_to": self.responds_to}

    def resolves_with(self) -> str | None:
        return self.terms

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return negotiation.propose(dispute_id, signer, self.terms, responds_to=self.responds_to)


class AcceptStep(_Step):
    """``Negotiating.accept``: the agent accepts ``proposal_id``."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    step: Literal["accept"]
    """The step's kind: `accept`."""
    proposal_id: Id
    """The proposal the agent accepts."""
    record_kind: ClassVar[str | None] = "acceptance"
    resolution_level: ClassVar[Tier | None] = Tier.DIRECT_NEGOTIATION

    def carried(self) -> dict[str, Any]:
        return {"proposal_id": self.proposal_id}

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return negotiation.accept(dispute_id, signer, self.proposal_id)


class CounterEvidenceStep(_Step):
    """``Negotiating.counter_evidence``: evidence addressed by its content hash."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    step: Literal["counter_evidence"]
    """The step's kind: `counter_evidence`."""
    content_hash: Sha256
    """`sha256:` of the counter-evidence's content (R33)."""
    description: Text
    """What the counter-evidence shows."""
    answers: Id | None = None
    """The evidence id it answers, if one."""
    record_kind: ClassVar[str | None] = "counter_evidence"

    def carried(self) -> dict[str, Any]:
        return {
            "content_hash": self.content_hash,
            "description": self.description,
            "answers": self.answers,
        }

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

    model_config = ConfigDict(use_attribute_docstrings=True)

    step: Literal["commit"]
    """The step's kind: `commit`."""
    commitment: Sha256
    """`sha256:` over the agent's nonce and choice."""
    record_kind: ClassVar[str | None] = "coin_commit"

    def carried(self) -> dict[str, Any]:
        return {"commitment": self.commitment}

    def window_end_within(self, conn: Connection, dispute: TierDispute) -> datetime | None:
        flip = step_rows.coin_flip_within(conn, dispute.dispute_id, dispute.party_ids)
        return None if flip is None else flip.commit_deadline

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return negotiation.commit(dispute_id, signer, self.commitment)


class RevealStep(_Step):
    """``Negotiating.reveal``: the nonce (hex) and choice behind the commitment."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    step: Literal["reveal"]
    """The step's kind: `reveal`."""
    nonce_hex: Annotated[str, Field(min_length=64, max_length=256, pattern=r"^(?:[0-9a-f]{2})+$")]
    """The nonce committed to, hex."""
    choice: Annotated[str, Field(min_length=1, max_length=MAX_CHOICE, pattern=_NO_NUL)]
    """The choice committed to."""
    record_kind: ClassVar[str | None] = "coin_reveal"

    def carried(self) -> dict[str, Any]:
        return {"nonce_hex": self.nonce_hex, "choice": self.choice}

    def window_end_within(self, conn: Connection, dispute: TierDispute) -> datetime | None:
        flip = step_rows.coin_flip_within(conn, dispute.dispute_id, dispute.party_ids)
        return None if flip is None else flip.reveal_deadline

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return negotiation.reveal(dispute_id, signer, bytes.fromhex(self.nonce_hex), self.choice)


class NominateStep(_Step):
    """``Arbitration.nominate``: pool members put forward (signs nothing: no payload)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    step: Literal["nominate"]
    """The step's kind: `nominate`."""
    agent_ids: Annotated[tuple[Id, ...], Field(min_length=1, max_length=MAX_NOMINEES)]
    """The arbitrators nominated, from the pre-approved pool (R10)."""

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return Nominations(items=arbitration.nominate(dispute_id, signer, self.agent_ids))


class VoteStep(_Step):
    """``Arbitration.vote``: a panel member's vote (its arbitrator key)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    role: ClassVar[KeyRole] = "arbitrator"
    step: Literal["vote"]
    """The step's kind: `vote`."""
    vote: Literal["approve", "dissent"]
    """`approve` or `dissent`."""
    reasoning: Text
    """Why the member votes so."""
    record_kind: ClassVar[str | None] = VOTE_RECORD_TYPE
    resolution_level: ClassVar[Tier | None] = Tier.CONTEXTUAL_ARBITRATION

    def carried(self) -> dict[str, Any]:
        return {"vote": self.vote, "reasoning_hash": reasoning_hash(self.reasoning)}

    def window_end_within(self, conn: Connection, dispute: TierDispute) -> datetime | None:
        seated = panel_rows.panel_within(conn, dispute.dispute_id)
        return None if seated is None else seated.formation.vote_deadline

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return arbitration.vote(dispute_id, signer, self.vote, self.reasoning)


class TallyStep(_Step):
    """``Arbitration.tally``: a member closes the vote and signs the decided record."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    role: ClassVar[KeyRole] = "arbitrator"
    step: Literal["tally"]
    """The step's kind: `tally`."""
    resolution_level: ClassVar[Tier | None] = Tier.CONTEXTUAL_ARBITRATION

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return arbitration.tally(dispute_id, signer)


class SignResolutionStep(_Step):
    """``Arbitration.sign_resolution``: a member signs the panel's decided §6 record."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    role: ClassVar[KeyRole] = "arbitrator"
    step: Literal["sign_resolution"]
    """The step's kind: `sign_resolution`."""
    resolution_level: ClassVar[Tier | None] = Tier.CONTEXTUAL_ARBITRATION

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return arbitration.sign_resolution(dispute_id, signer)


class _ActionArg(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    agent_id: Id
    """The party that must act (no whitespace, at most 256 characters)."""
    action: Text
    """What it must do (1 to 20,000 characters)."""
    deadline: AwareDatetime
    """By when, with a time zone."""


class _PrecedentArg(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    jurisprudence_id: Id
    """The precedent's id (``jur:<uuid>``)."""
    applicability: Text
    """How it applies; ``departed`` for a departure (1 to 20,000 characters)."""
    departure_reasoning: Text | None = None
    """Why the proposal departs: required with ``departed``, refused otherwise (R25)."""


class PanelProposeStep(_Step):
    """``Arbitration.propose``: a member's proposed §6 resolution (its arbitrator key); the
    agent signs the ``panel_proposal`` step record, whose ``question`` carries the proposal."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    role: ClassVar[KeyRole] = "arbitrator"
    step: Literal["panel_propose"]
    """The step's kind: `panel_propose`."""
    favours: Id
    """The party the proposed resolution finds for."""
    description: Text
    """The resolution's terms: its outcome's description (1 to 20,000 characters)."""
    actions_required: Annotated[tuple[_ActionArg, ...], Field(max_length=MAX_ACTIONS)] = ()
    """What each party must do, and by when (at most 32 actions)."""
    compliance_verification_method: Id = COMPLIANCE_METHOD
    """How compliance is checked (R20): ``audit_chain_review`` unless told."""
    compliance_deadline: AwareDatetime | None = None
    """By when compliance is checked: no earlier than any action's deadline."""
    precedents_applied: Annotated[
        tuple[_PrecedentArg, ...], Field(max_length=MAX_PRECEDENTS)
    ] = ()
    """The precedents the resolution applies or departs from (at most 32)."""
    record_kind: ClassVar[str | None] = PROPOSAL_STEP

    def window_end_within(self, conn: Connection, dispute: TierDispute) -> datetime | None:
        seated = panel_rows.panel_within(conn, dispute.dispute_id)
        return None if seated is None else seated.formation.vote_deadline

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return arbitration.propose(
            dispute_id,
            signer,
            favours=self.favours,
            description=self.description,
            actions_required=[a.model_dump() for a in self.actions_required],
            compliance_verification_method=self.compliance_verification_method,
            compliance_deadline=self.compliance_deadline,
            precedents_applied=[p.model_dump(exclude_none=True) for p in self.precedents_applied],
        )


class AcceptRecommendationStep(_Step):
    """``Arbitration.accept_recommendation``: a party accepts the panel's recommended
    resolution (its agent key), signing the ``recommendation_acceptance`` step record."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    step: Literal["accept_recommendation"]
    """The step's kind: `accept_recommendation`."""
    record_kind: ClassVar[str | None] = ACCEPTANCE_STEP

    def run(
        self, dispute_id: str, signer: Signer, negotiation: Negotiating, arbitration: Arbitration
    ) -> StepResult:
        return arbitration.accept_recommendation(dispute_id, signer)


PreparedStepArgs = Annotated[
    ProposeStep
    | AcceptStep
    | CounterEvidenceStep
    | CommitStep
    | RevealStep
    | NominateStep
    | VoteStep
    | TallyStep
    | SignResolutionStep
    | PanelProposeStep
    | AcceptRecommendationStep,
    Field(discriminator="step"),
]
"""One step an agent prepares, its kind named by ``step``."""
_ARGS: TypeAdapter[PreparedStepArgs] = TypeAdapter(PreparedStepArgs)


def validated_step(step: PreparedStepArgs | Mapping[str, Any]) -> PreparedStepArgs:
    """``step`` as its kind's model (a refusal naming the field otherwise)."""
    if not isinstance(step, Mapping):
        return step
    try:
        return _ARGS.validate_python(dict(step))
    except PydanticValidationError as error:
        raise from_pydantic(error, requirement="R7", record="prepared_step") from None
