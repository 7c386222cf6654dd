"""The §6 arbitration resolution record (R19, R40) and its parts: outcome, panel, signatures.

Human appeal uses the same shape with ``resolution_level`` ``human_appeal`` and the principals'
signatures (the text gives it no shape of its own).
"""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.dcp07.fields import (
    Count,
    DisputeId,
    Identifier,
    JurisprudenceId,
    PrevHash,
    PrevHashSecondary,
    ResolutionId,
    Sha256Hash,
    Text,
    Timestamp,
)
from accord.dcp07.refusal import refused
from accord.dcp07.signature_fields import SignerSignature
from accord.dcp07.vocabulary import ResolutionType, Tier, Vote

MIN_PANEL_SIZE = 3
"""R10: a panel has at least three members."""


class RequiredAction(BaseModel):
    """What one agent must do, and by when, to comply (R20)."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    agent_id: Identifier
    """The agent that must act."""
    action: Text
    """What it must do."""
    deadline: Timestamp
    """By when (RFC 3339, UTC)."""


class Outcome(BaseModel):
    """What was decided, the actions it requires and how compliance is checked."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    description: Text
    """What was decided."""
    actions_required: tuple[RequiredAction, ...] = ()
    """What each agent must do, and by when, to comply (R20)."""
    compliance_verification_method: Identifier
    """How compliance is checked (``audit_chain_review``: the one Accord checks)."""
    compliance_deadline: Timestamp | None
    """By when compliance is checked, if there is a deadline."""


DEPARTED = "departed"
"""The ``applicability`` of a precedent the decision departs from (R25)."""


def _departure_reasoning_omitted_when_absent(schema: dict[str, Any]) -> None:
    """Mark ``departure_reasoning`` ``x-omitted-when-absent`` in the model's JSON Schema (read
    by ``dcp.json_schemas``). On the model, not the field: Litestar's OpenAPI generator
    refuses unknown keys in a field's ``json_schema_extra`` (the service's ``/schema`` would
    answer 500)."""
    schema["properties"]["departure_reasoning"]["x-omitted-when-absent"] = True


class PrecedentApplication(BaseModel):
    """A precedent the decision considered, and how it applies; a departure (R25:
    ``applicability`` ``departed``) carries the documented ``departure_reasoning``, which is
    left out of the record when there is none (the §6 shape is unchanged for the others)."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        json_schema_extra=_departure_reasoning_omitted_when_absent,
        use_attribute_docstrings=True,
    )

    jurisprudence_id: JurisprudenceId
    """The precedent's id (``jur:<uuid>``)."""
    applicability: Text
    """How it applies; ``departed`` for a departure (R25)."""
    departure_reasoning: Text | None = Field(default=None, exclude_if=lambda value: value is None)
    """Why the decision departs: present only with ``departed`` (R25)."""

    @model_validator(mode="after")
    def _departure_is_reasoned(self) -> Self:
        departed = self.applicability == DEPARTED
        reasoning = (self.departure_reasoning or "").strip()
        if departed and not reasoning:
            raise refused(
                "R25",
                "precedents_applied.departure_reasoning",
                "a departure from precedent carries its documented reasoning",
                code="dcp.departure_unreasoned",
                jurisprudence_id=self.jurisprudence_id,
            )
        if not departed and self.departure_reasoning is not None:
            raise refused(
                "R25",
                "precedents_applied.departure_reasoning",
                f"departure_reasoning is given only when applicability is {DEPARTED!r}",
                code="dcp.departure_reasoning_misplaced",
                jurisprudence_id=self.jurisprudence_id,
            )
        return self

    @property
    def departed(self) -> bool:
        """Whether the decision departs from this precedent (R25)."""
        return self.applicability == DEPARTED


class PanelMember(BaseModel):
    """A panel member's vote and the hash of its reasoning (R14)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: Identifier
    vote: Vote
    reasoning_hash: Sha256Hash


class Threshold(BaseModel):
    """M-of-N: ``m`` approving votes of ``n`` members make the decision (R10, R39)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    m: Count
    n: Count

    @model_validator(mode="after")
    def _m_of_n(self) -> Self:
        if self.n < MIN_PANEL_SIZE:
            raise refused(
                "R10", "threshold.n", "a panel has at least 3 members", code="dcp.panel_too_small"
            )
        if not 1 <= self.m <= self.n:
            raise refused(
                "R39",
                "threshold.m",
                "1 <= m <= n",
                code="dcp.threshold_invalid",
                m=self.m,
                n=self.n,
            )
        return self


class Panel(BaseModel):
    """The M-of-N panel that decided, each member's vote recorded (R14, R19)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    members: tuple[PanelMember, ...]
    threshold: Threshold
    votes_for: Count
    votes_against: Count

    @model_validator(mode="after")
    def _votes_add_up(self) -> Self:
        ids = [member.agent_id for member in self.members]
        if len(set(ids)) != len(ids):
            raise refused(
                "R14", "panel.members", "one seat per member", code="dcp.duplicate_member"
            )
        if len(ids) != self.threshold.n:
            raise refused(
                "R19",
                "panel.threshold.n",
                "n is the number of panel members",
                code="dcp.panel_count_mismatch",
                members=len(ids),
                n=self.threshold.n,
            )
        approvals = sum(1 for member in self.members if member.vote is Vote.APPROVE)
        if (self.votes_for, self.votes_against) != (approvals, len(ids) - approvals):
            raise refused(
                "R19",
                "panel.votes_for",
                "votes_for and votes_against count the members' votes",
                code="dcp.vote_count_mismatch",
                votes_for=self.votes_for,
                votes_against=self.votes_against,
                approvals=approvals,
            )
        return self

    @property
    def agreed(self) -> bool:
        """True when at least M members approved (an M-of-N agreement)."""
        return self.votes_for >= self.threshold.m


class ResolutionRecord(BaseModel):
    """A DCP-07 arbitration resolution record (§6.1); ``signatures`` fill in one per signer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dcp_version: Literal["2.0"] = "2.0"
    record_type: Literal["arbitration_resolution"] = "arbitration_resolution"
    resolution_id: ResolutionId
    dispute_id: DisputeId
    resolution_level: Tier
    resolution_type: ResolutionType
    outcome: Outcome
    reasoning: Text
    precedents_applied: tuple[PrecedentApplication, ...] = ()
    panel: Panel | None = None
    effective_at: Timestamp
    expires_at: Timestamp | None = None
    timestamp: Timestamp
    prev_hash: PrevHash
    prev_hash_secondary: PrevHashSecondary
    signatures: tuple[SignerSignature, ...] = Field(default=())

    @model_validator(mode="after")
    def _level_panel_and_type_agree(self) -> Self:
        arbitration = self.resolution_level is Tier.CONTEXTUAL_ARBITRATION
        if arbitration != (self.panel is not None):
            raise refused(
                "R19",
                "panel",
                "a panel is recorded exactly when the level is contextual_arbitration",
                code="dcp.panel_level_mismatch",
                resolution_level=self.resolution_level.value,
            )
        if self.panel is not None:
            split = self.resolution_type is ResolutionType.SPLIT_DECISION
            if split == self.panel.agreed:
                raise refused(
                    "R15",
                    "resolution_type",
                    "split_decision exactly when fewer than M members approved",
                    code="dcp.decision_type_mismatch",
                    votes_for=self.panel.votes_for,
                    m=self.panel.threshold.m,
                )
        elif self.resolution_type is ResolutionType.SPLIT_DECISION:
            raise refused(
                "R15",
                "resolution_type",
                "only a panel can split",
                code="dcp.decision_type_mismatch",
            )
        if (
            self.resolution_level is Tier.HUMAN_APPEAL
            and self.resolution_type is not ResolutionType.BINDING_RESOLUTION
        ):
            raise refused(
                "R16",
                "resolution_type",
                "a human appeal decision is final and binding",
                code="dcp.decision_type_mismatch",
            )
        self._signers_are_distinct_members()
        return self

    def _signers_are_distinct_members(self) -> None:
        signers = [s.agent_id for s in self.signatures]
        if len(set(signers)) != len(signers):
            raise refused(
                "R19", "signatures", "one signature per signer", code="dcp.duplicate_signer"
            )
        if self.panel is not None:
            members = {member.agent_id for member in self.panel.members}
            outsiders = sorted(set(signers) - members)
            if outsiders:
                raise refused(
                    "R19",
                    "signatures.agent_id",
                    "only panel members sign a panel's resolution",
                    code="dcp.signer_not_member",
                    agents=outsiders,
                )
