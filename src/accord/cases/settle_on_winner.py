"""Settling a case on a winning group: the one operation tier 1, tier-2 strategies, people and
probe receipts all call (pure).

Given the case, the winners and how they won, it builds the :class:`Decision`, one
:class:`DissentRecord` per overruled party and the settled case (through the lifecycle);
:meth:`Settlement.resolved_record` gives the signed ``dispute_resolved`` record of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from accord.cases.case import Case, Decision, DissentRecord
from accord.cases.lifecycle import NewCase, Outcome, transition
from accord.cases.records import CaseResolved, HowResolved, dispute_resolved
from accord.cases.signable import AnswerHashes
from accord.conflicts import Position, Tier
from accord.ids import new_id


@dataclass(frozen=True)
class Dissenter:
    """An overruled party: its position, and the strategy its dissent is recorded under."""

    position: Position
    strategy: str


@dataclass(frozen=True)
class Settlement:
    """The settled case."""

    case: Case

    def resolved_record(
        self, how: HowResolved, answer_hash: AnswerHashes | None = None
    ) -> CaseResolved:
        """The signed ``dispute_resolved`` record of this settlement."""
        return dispute_resolved(self.case, how, answer_hash)


def lead_of(positions: Sequence[Position], winners: Sequence[str]) -> str:
    """The most confident of ``winners`` (the first on a tie): the decision's ``winner``."""
    by_agent = {p.agent: p for p in positions}
    return max(winners, key=lambda a: by_agent[a].confidence or 0.0)


_KEEP: Any = object()


def settle_on_winner(
    case: Case | NewCase,
    *,
    winners: tuple[str, ...],
    answer: Any,
    rung: str,
    tier: Tier,
    confidence: float,
    decided_by: str,
    reasoning: str,
    decided_at: datetime,
    lead: str | None = None,
    dissenters: Sequence[Dissenter] | None = None,
    arguments: Mapping[str, str] | None = None,
    department: str | None = _KEEP,
    **changes: Any,
) -> Settlement:
    """``case`` settled on ``winners`` at ``decided_at`` (the one clock read every time in it
    comes from).

    ``lead`` (default: the most confident winner; none when ``winners`` is empty — a person's
    written outcome, which no party gave) is the decision's ``winner``; ``dissenters``
    (default: every party not among the winners, under ``rung``) each get a dissent record
    with ``reasoning``, ``decided_by`` and the debate's ``arguments``. ``department`` defaults
    to the case's; ``changes`` sets further fields of the settled case (attempts, strategy,
    tokens...). Raises :class:`~accord.errors.IllegalTransition` from a final status."""
    positions = case.positions
    overruled = (
        [(p, rung) for p in positions if p.agent not in winners]
        if dissenters is None
        else [(d.position, d.strategy) for d in dissenters]
    )
    if department is _KEEP:
        department = case.department
    decision = Decision(
        winner=lead if lead is not None or not winners else lead_of(positions, winners),
        winners=winners,
        answer=answer,
        rung=rung,
        confidence=confidence,
        resolution_id=new_id("res", decided_at),
    )
    detection = case.detection
    kind = detection.kind.value if detection.kind else None
    severity = detection.severity.value if detection.severity else None
    dissent = tuple(
        DissentRecord(
            dissent_id=new_id("dis", decided_at),
            case_id=case.case_id,
            agent_id=position.agent,
            task_type=case.task_type,
            kind=kind,
            strategy=strategy,
            position=position,
            winning_answer=answer,
            reasoning=reasoning,
            created_at=decided_at,
            subject=case.subject,
            severity=severity,
            department=department,
            winners=winners,
            positions=positions,
            arguments=dict(arguments or {}),
            decided_by=decided_by,
        )
        for position, strategy in overruled
    )
    settled = transition(
        case,
        Outcome.SETTLED,
        **changes,
        tier=tier,
        department=department,
        decision=decision,
        dissent=dissent,
        decided_at=decided_at,
    )
    return Settlement(settled)


__all__ = ["Dissenter", "Settlement", "lead_of", "settle_on_winner"]
