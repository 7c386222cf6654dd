"""The case: one disagreement between agents, from positions to decision or escalation."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Self

from pydantic import BaseModel, ConfigDict, JsonValue, SkipValidation, model_validator

from accord.cases.shared_outputs import restore_dissent_outputs, restore_outputs
from accord.cases.statuses import LEGAL_PAIRS, SettleStatus
from accord.conflicts import Classification, Detection, Position, Tier
from accord.dcp07.statuses import CaseStatus
from accord.ladder import RungAttempt

Answer = Annotated[JsonValue, SkipValidation]
"""An agent's output as a position already checked and copied it: not validated (copied) again,
since a large output would cost its size once more per copy."""


class Decision(BaseModel):
    """The winning side, or the merged output, and how it was reached.

    An agreement (``rung="consensus"``) keeps every agent's figure in the case's positions
    (:attr:`Case.figures`); its ``answer`` is the shared value only when every figure is the
    same (None when they agree within tolerance but differ) and its ``confidence`` is None:
    nobody decided anything.
    """

    model_config = ConfigDict(frozen=True)

    winner: str | None = None
    winners: tuple[str, ...] = ()
    answer: Answer = None
    rung: str | None = None
    confidence: float | None = 0.0
    provenance: dict[str, str] | None = None
    conflicts_resolved: tuple[str, ...] = ()
    """Merged fields where agents gave different values (the most confident one was kept)."""
    resolution_id: str | None = None


class EscalationPayload(BaseModel):
    """What the next tier receives (playbook §7)."""

    model_config = ConfigDict(frozen=True)

    summary: str
    reason: str
    next_step: str | None
    target_tier: Tier
    outputs: Annotated[dict[str, JsonValue], SkipValidation]
    evidence: dict[str, dict[str, Any]]
    strategies_tried: tuple[RungAttempt, ...]
    confidence: float


class DissentRecord(BaseModel):
    """An overruled agent's position, kept with the conflict and the decision that overruled it.

    ``reasoning`` is why the decision went the other way (the rung, judge or reviewer);
    ``arguments`` holds every party's argument when there was a debate.
    """

    model_config = ConfigDict(frozen=True)

    dissent_id: str
    case_id: str
    agent_id: str
    task_type: str
    kind: str | None
    strategy: str | None
    position: Position
    winning_answer: Answer
    reasoning: str
    created_at: datetime
    subject: str = ""
    severity: str | None = None
    department: str | None = None
    winners: tuple[str, ...] = ()
    positions: tuple[Position, ...] = ()
    arguments: dict[str, str] = {}
    decided_by: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _restore_shared_outputs(cls, data: Any) -> Any:
        return restore_dissent_outputs(data)  # a stored dissent names each output once

    @model_validator(mode="after")
    def _a_dissenter_lost(self) -> Self:
        if self.position.agent != self.agent_id:
            raise ValueError(f"dissent {self.dissent_id}: the position is not {self.agent_id}'s")
        if self.agent_id in self.winners:
            raise ValueError(f"dissent {self.dissent_id}: {self.agent_id} is among the winners")
        if self.positions and all(p.agent != self.agent_id for p in self.positions):
            raise ValueError(f"dissent {self.dissent_id}: {self.agent_id} is not a party")
        return self


class Case(BaseModel):
    """A settled, merged, agreed or escalated case, as persisted and returned by ``settle``."""

    model_config = ConfigDict(frozen=True)

    case_id: str
    session_id: str | None
    subject: str
    task_type: str
    status: SettleStatus
    dcp_status: CaseStatus
    tier: Tier
    positions: tuple[Position, ...]
    detection: Detection
    classification: Classification | None
    decision: Decision | None
    attempts: tuple[RungAttempt, ...] = ()
    escalation: EscalationPayload | None = None
    dissent: tuple[DissentRecord, ...] = ()
    created_at: datetime
    decided_at: datetime | None
    duration_ms: int
    ledger_seqs: tuple[int, ...] = ()
    department: str | None = None
    strategy: str | None = None
    approval_item_id: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    model_calls: int = 0

    @model_validator(mode="before")
    @classmethod
    def _restore_shared_outputs(cls, data: Any) -> Any:
        return restore_outputs(data)  # a stored document names each output once

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        """The status pair is one the lifecycle knows; winners and dissenters are parties, and
        nobody both won and dissented."""
        if (self.status, self.dcp_status) not in LEGAL_PAIRS:
            raise ValueError(
                f"status {self.status.value} with dcp_status {self.dcp_status.value} is not a "
                "state of the case lifecycle (accord.cases.lifecycle.OUTCOMES)"
            )
        parties = {p.agent for p in self.positions}
        winners = set(self.decision.winners) if self.decision is not None else set()
        if not winners <= parties:
            raise ValueError(f"winners {sorted(winners - parties)} are not parties")
        winner = self.decision.winner if self.decision is not None else None
        if winner is not None and winner not in winners:
            raise ValueError(f"winner {winner} is not among the winners")
        for d in self.dissent:
            if d.agent_id not in parties:
                raise ValueError(f"dissent {d.dissent_id}: {d.agent_id} is not a party")
            if d.agent_id in winners:
                raise ValueError(f"dissent {d.dissent_id}: {d.agent_id} is among the winners")
            if d.case_id != self.case_id:
                raise ValueError(f"dissent {d.dissent_id} belongs to case {d.case_id}")
        return self

    @property
    def figures(self) -> dict[str, Any]:
        """Every agent's figure when the agents agreed (``no_conflict``), else empty."""
        if self.status is not SettleStatus.NO_CONFLICT:
            return {}
        return {p.agent: p.output for p in self.positions}

    @property
    def dissent_ids(self) -> tuple[str, ...]:
        return tuple(d.dissent_id for d in self.dissent)

    def summary(self) -> dict[str, Any]:
        """The flat decision view printed by ``accord settle``."""
        decision = self.decision
        classification = self.classification
        return {
            "case_id": self.case_id,
            "status": self.status.value,
            "winner": decision.winner if decision else None,
            "winners": list(decision.winners) if decision else [],
            "answer": decision.answer if decision else None,
            "figures": self.figures,
            "rung": decision.rung if decision else None,
            "kind": self.detection.kind.value if self.detection.kind else None,
            "severity": self.detection.severity.value if self.detection.severity else None,
            "dispute_type": classification.dispute_type.value if classification else None,
            "tier": self.tier.value,
            "confidence": decision.confidence if decision else 0.0,
            "dissent_ids": list(self.dissent_ids),
            "escalation_reason": self.escalation.reason if self.escalation else None,
            "next_step": self.escalation.next_step if self.escalation else None,
            "duration_ms": self.duration_ms,
            "ledger_seqs": list(self.ledger_seqs),
            "strategy": self.strategy,
            "approval_item_id": self.approval_item_id,
            "tokens": {
                "input": self.tokens_in,
                "output": self.tokens_out,
                "model_calls": self.model_calls,
            },
        }


__all__ = [
    "Answer",
    "Case",
    "CaseStatus",
    "Decision",
    "DissentRecord",
    "EscalationPayload",
    "SettleStatus",
]
