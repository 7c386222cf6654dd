"""Approval items and the decisions that close them."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

from accord.approvals.policies import Risk, TimeoutPolicy
from accord.approvals.position_summary import PositionSummary
from accord.approvals.principal import SYSTEM_PREFIX

TIMEOUT_DECIDER = "system:timeout"
ITEM_ID_PATTERN = r"^apr:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"

HumanOutcome = Literal["approved", "denied"]

OPTION_LABEL_MAX_CHARS = 256
"""The longest option (what a person picks and ``approvals decide --choice`` takes); a longer
answer is offered as a label, its full text in ``ApprovalItem.option_texts``."""

MAX_WRITTEN_OUTCOME_CHARS = 5_000
"""The longest outcome a person may write instead of choosing an option (the reasoning's
bound on the HTTP body)."""

Option = Annotated[str, Field(min_length=1, max_length=OPTION_LABEL_MAX_CHARS)]
OptionText = Annotated[str, Field(min_length=1)]
"""An option's full text: an agent's output rendered, so it is bounded where the output came in
(``limits.output_bytes``, named on the user's own field); no second, inner cap here that an
admitted output could break."""


class ApprovalStatus(StrEnum):
    """Where an item stands; ``expired`` (a policy acted) is distinct from a human ``denied``."""

    PENDING = "pending"
    APPROVED = "approved"
    DENIED = "denied"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


class ApprovalDecision(BaseModel):
    """How an item was closed: by a person (``via="human"``) or by its timeout policy.

    A person approves one of the options (``choice``), denies them all, or approves an outcome
    of their own (``written_outcome``, with no ``choice``): the case settles on that text."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    outcome: Literal["approved", "denied", "expired"] = Field(
        description="Deprecated (one release): 'approved' for any chosen option, a rejection "
        "included; branch on the verdict (accord.approvals.verdict_of_decision) instead.",
        json_schema_extra={"deprecated": True},
    )
    choice: str | None = None
    """The option chosen, if one was."""
    written_outcome: str | None = None
    """The outcome the reviewer wrote instead of choosing an option, if so."""
    decided_by: Annotated[str, Field(min_length=1, max_length=256)]
    """Who decided: a reviewer, or ``system:timeout``."""
    reason: str = ""
    """The decider's reasoning."""
    decided_at: AwareDatetime
    """When it was decided."""
    via: Literal["human", "timeout"]
    """A person's decision (``human``) or the item's timeout policy (``timeout``)."""

    @model_validator(mode="after")
    def _timeouts_are_never_human(self) -> ApprovalDecision:
        if self.via == "timeout":
            if self.outcome != "expired" or self.decided_by != TIMEOUT_DECIDER:
                raise ValueError(f"a timeout records outcome 'expired' by {TIMEOUT_DECIDER!r}")
        elif self.outcome == "expired" or self.decided_by.startswith(SYSTEM_PREFIX):
            raise ValueError("a human decision approves or denies, by a non-system principal")
        if self.written_outcome is not None and (
            self.via != "human" or self.outcome != "approved" or self.choice is not None
        ):
            raise ValueError("a written outcome is a person's approval, in place of a choice")
        return self


class ApprovalItem(BaseModel):
    """A case escalated to people: the positions, the analysis so far and the choices."""

    model_config = ConfigDict(use_attribute_docstrings=True, frozen=True, extra="forbid")

    item_id: Annotated[str, Field(pattern=ITEM_ID_PATTERN)]
    """The approval item's id."""
    case_id: Annotated[str, Field(min_length=1, max_length=64)]
    """The case people are asked to decide."""
    title: Annotated[str, Field(min_length=1, max_length=500)]
    """A one-line title for the queue."""
    summary: str
    """What people are asked to decide, in a few sentences."""
    positions: tuple[PositionSummary, ...]
    """Each agent's position, summarised."""
    analysis: str
    """What the service found: where the positions differ and why it could not settle."""
    options: tuple[Option, ...] = Field(min_length=1)
    """The options a reviewer may choose from (each agent's answer)."""
    option_texts: tuple[OptionText, ...] = ()
    """The full text of each option, in order, when some option is a label for a longer
    answer; empty when every option is its own full text."""
    risk: Risk
    """How much is at stake: low, medium, high or critical."""
    policy: TimeoutPolicy
    """The §12.4 policy: who may decide and what happens at the deadline."""
    status: ApprovalStatus = ApprovalStatus.PENDING
    """pending, approved, denied, expired or cancelled (read verdict for what was decided)."""
    created_at: AwareDatetime
    deadline: AwareDatetime | None = None
    """The item's own deadline, if any (acting_deadline is the one that acts)."""
    escalation_step: Annotated[int, Field(ge=0)] = 0
    """How many times the item was escalated to the next role."""
    current_role: str | None = None
    """The role asked now."""
    decision: ApprovalDecision | None = None
    """The decision as stored (deprecated shape: read verdict and the case's decision)."""
    version: Annotated[int, Field(ge=1)] = 1
    """The item's version, for optimistic concurrency."""

    @model_validator(mode="after")
    def _status_matches_decision(self) -> ApprovalItem:
        if len(set(self.options)) != len(self.options):
            raise ValueError("options must be distinct")
        if self.option_texts and len(self.option_texts) != len(self.options):
            raise ValueError("option_texts must give one full text per option")
        closed_by_decision = self.status in (
            ApprovalStatus.APPROVED,
            ApprovalStatus.DENIED,
            ApprovalStatus.EXPIRED,
        )
        if closed_by_decision != (self.decision is not None):
            raise ValueError(
                f"a {self.status.value} item {'needs' if closed_by_decision else 'has no'} decision"
            )
        if self.decision is not None and self.decision.outcome != self.status.value:
            raise ValueError("the decision's outcome must match the status")
        if self.status is not ApprovalStatus.PENDING and self.deadline is not None:
            raise ValueError("only a pending item has a deadline")
        return self

    @property
    def is_pending(self) -> bool:
        return self.status is ApprovalStatus.PENDING

    def is_due(self, now: datetime) -> bool:
        return self.is_pending and self.deadline is not None and self.deadline <= now
