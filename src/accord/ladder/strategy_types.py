"""What a tier-2/3 strategy works on and what it hands back: the dispute, the outcome, dissent.

A :class:`Conflict` is a detected, classified conflict between parties' positions; a
:class:`StrategyOutcome` says whether a strategy decided it (and for which answer group),
escalated it, or queued it for people; a :class:`DissentDraft` keeps an overruled agent's
position and reasoning next to the reasoning that overruled it (seed 000's dissent record:
conflict context, both positions, resolution). Validators encode the invariants.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.conflicts import (
    Classification,
    DecisionTable,
    Detection,
    DetectionSettings,
    Position,
    classify,
    detect,
)
from accord.errors import ValidationError
from accord.printable import PrintableId

OutcomeStatus = Literal["decided", "escalated", "queued"]


class Conflict(BaseModel):
    """A conflict between parties: their positions, how they group, and how it is classified.

    Every position's agent sits in exactly one answer group, and there are at least two groups.
    """

    model_config = ConfigDict(frozen=True)

    case_id: str = Field(min_length=1)
    subject: str
    task_type: str
    positions: tuple[Position, ...] = Field(min_length=2)
    detection: Detection
    classification: Classification
    department: str | None = None

    @model_validator(mode="after")
    def _parties_sit_in_groups(self) -> Self:
        if len(self.detection.groups) < 2:
            raise ValueError("a dispute needs at least two answer groups")
        grouped = [agent for group in self.detection.groups for agent in group.agents]
        agents = [position.agent for position in self.positions]
        if sorted(grouped) != sorted(agents) or len(set(agents)) != len(agents):
            raise ValueError("every party must appear in exactly one answer group")
        return self

    @classmethod
    def from_positions(
        cls,
        case_id: str,
        subject: str,
        task_type: str,
        positions: Sequence[Position],
        *,
        table: DecisionTable | None = None,
        settings: DetectionSettings | None = None,
        department: str | None = None,
    ) -> Conflict:
        """Detect and classify ``positions``; ``strategies.no_conflict`` when they agree."""
        found = detect(positions, settings or DetectionSettings())
        if not found.has_conflict:
            raise ValidationError(
                f"no conflict to resolve: {found.description}",
                code="strategies.no_conflict",
                field="positions",
            )
        return cls(
            case_id=case_id,
            subject=subject,
            task_type=task_type,
            positions=tuple(positions),
            detection=found,
            classification=classify(found, table or DecisionTable()),
            department=department,
        )

    @property
    def parties(self) -> tuple[str, ...]:
        """Every party's agent id, in position order."""
        return tuple(position.agent for position in self.positions)

    def group_of(self, agent: str) -> int | None:
        """The index of the answer group ``agent`` belongs to; None for a non-party."""
        for index, group in enumerate(self.detection.groups):
            if agent in group.agents:
                return index
        return None

    def position_of(self, agent: str) -> Position:
        """The party's position; ``strategies.unknown_party`` for a non-party."""
        for position in self.positions:
            if position.agent == agent:
                return position
        raise ValidationError(
            f"{agent!r} is not a party", code="strategies.unknown_party", agent=agent
        )


class StrategyOutcome(BaseModel):
    """What a strategy did with a dispute.

    ``decided``: ``group`` (an index into ``detection.groups``) and ``winner`` (its lead agent)
    are set. ``escalated``: ``escalation_reason`` says why. ``queued``: ``approval_item_id``
    names the human approval item. ``arguments`` maps a party to its argument text.
    """

    model_config = ConfigDict(frozen=True)

    strategy: str = Field(min_length=1)
    status: OutcomeStatus
    group: int | None = Field(default=None, ge=0)
    winner: str | None = None
    confidence: float = Field(default=0.0, ge=0.0, le=1.0)
    reasoning: str = ""
    decided_by: str | None = None
    arguments: dict[str, str] = Field(default_factory=dict)
    judge_reasoning: str | None = None
    rounds: int = Field(default=0, ge=0)
    tokens_in: int = Field(default=0, ge=0)
    tokens_out: int = Field(default=0, ge=0)
    model_calls: int = Field(default=0, ge=0)
    escalation_reason: str | None = None
    approval_item_id: str | None = None
    notes: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _status_fields(self) -> Self:
        decided = self.status == "decided"
        if decided != (self.group is not None) or decided != (self.winner is not None):
            raise ValueError("group and winner are set exactly when the outcome is decided")
        if self.status == "escalated" and not self.escalation_reason:
            raise ValueError("an escalated outcome needs an escalation_reason")
        if (self.status == "queued") != bool(self.approval_item_id):
            raise ValueError("approval_item_id is set exactly when the outcome is queued")
        return self


class DissentDraft(BaseModel):
    """An overruled party's position and reasoning, beside the reasoning that overruled it."""

    model_config = ConfigDict(frozen=True)

    agent_id: PrintableId
    position: Position
    reasoning: str
    resolution_reasoning: str
    strategy: str = Field(min_length=1)

    @model_validator(mode="after")
    def _position_is_the_dissenters(self) -> Self:
        if self.position.agent != self.agent_id:
            raise ValueError("a dissent's position must be the dissenting agent's own")
        return self
