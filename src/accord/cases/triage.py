"""From positions to a case: detect, classify, run tier 1, merge or escalate (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from pydantic import JsonValue

from accord.cases.case import Case, Decision, EscalationPayload
from accord.cases.lifecycle import NewCase, Outcome, transition
from accord.cases.settle_on_winner import settle_on_winner
from accord.cases.signable import answer_hash
from accord.conflicts import (
    Classification,
    DecisionTable,
    Detection,
    DetectionSettings,
    Position,
    SemanticComparator,
    Tier,
    classify,
    detect,
    merge_complementary,
)
from accord.ids import new_id
from accord.ladder import (
    LadderSettings,
    ResolutionPolicy,
    RungContext,
    StrategyChoice,
    TierOneOutcome,
    VerifierRegistry,
    escalation_target,
    run_tier_one,
    with_tier_one_rungs,
)
from accord.org import OrgChart, shared_department


@dataclass(frozen=True)
class TriageSettings:
    """Detection per task type, the decision table, and the ladder's thresholds."""

    detection: DetectionSettings = field(default_factory=DetectionSettings)
    detection_by_task: Mapping[str, DetectionSettings] = field(default_factory=dict)
    table: DecisionTable = field(default_factory=DecisionTable)
    ladder: LadderSettings = field(default_factory=LadderSettings)
    allow_unknown_agents: bool = False
    """``settle.allow_unknown_agents``: accept agents missing from a configured org chart."""

    def detection_for(self, task_type: str) -> DetectionSettings:
        return self.detection_by_task.get(task_type, self.detection)


@dataclass(frozen=True)
class TriageInput:
    subject: str
    task_type: str
    session_id: str | None
    positions: tuple[Position, ...]
    created_at: datetime


@dataclass(frozen=True)
class Triaged:
    """A decided case and the policy's choice for it, made once: tier 1 ran its ``tier1``
    rungs, and what runs after tier 1 reuses it (None: no conflict, or no policy given)."""

    case: Case
    choice: StrategyChoice | None = None


@dataclass(frozen=True)
class _Frame:
    """The fields every case of one ``decide`` call shares."""

    case_id: str
    item: TriageInput
    detection: Detection
    decided_at: datetime
    duration_ms: int

    @property
    def opening(self) -> NewCase:
        """The case as settle opens it (DCP ``open``), before its outcome."""
        return NewCase(
            case_id=self.case_id,
            session_id=self.item.session_id,
            subject=self.item.subject,
            task_type=self.item.task_type,
            positions=self.item.positions,
            detection=self.detection,
            created_at=self.item.created_at,
            duration_ms=self.duration_ms,
        )


def triage(
    item: TriageInput,
    settings: TriageSettings,
    *,
    org: OrgChart | None,
    verifiers: VerifierRegistry,
    weights: Mapping[str, float],
    semantic: SemanticComparator | None,
    decided_at: datetime,
    duration_ms: int = 0,
    policy: ResolutionPolicy | None = None,
    department: str | None = None,
    manager_port: bool = False,
    gate: str | None = None,
) -> Triaged:
    """Decide one case at tier 1 (or record agreement / merge / escalation).

    With a ``policy``, its choice for the conflict (kind, and the parties' ``department``) is
    made here, once: its ``tier1`` replaces the chain's tier-1 rungs, and it is returned for
    the tiers after. A ``gate`` (:meth:`accord.Accord.request_approval`) replaces the
    policy's choice: no tier-1 rung runs and the human strategy queues the case for people.
    """
    detection = detect(
        item.positions,
        settings.detection_for(item.task_type),
        semantic,
        question=item.subject,
        reference=item.created_at,
    )
    frame = _Frame(new_id("disp", item.created_at), item, detection, decided_at, duration_ms)
    if not detection.has_conflict:
        return Triaged(_agreed(frame))
    classification = classify(detection, settings.table)
    if gate is not None:
        choice: StrategyChoice | None = gate_choice(gate, department)
    else:
        choice = None if policy is None else policy.choose(classification.kind, department)
    classification = with_tier_one_rungs(classification, choice.tier1 if choice else None)
    ctx = RungContext(
        subject=item.subject,
        task_type=item.task_type,
        positions=item.positions,
        detection=detection,
        classification=classification,
        org=org,
        weights=weights,
        manager_port=manager_port,
    )
    outcome = run_tier_one(ctx, verifiers, settings.ladder)
    if outcome.decided:
        return Triaged(_settled(frame, classification, outcome, org), choice)
    return Triaged(_escalated(frame, classification, outcome), choice)


def gate_choice(gate: str, department: str | None) -> StrategyChoice:
    """A gate's choice: no tier-1 rung (the more confident side never wins), people decide."""
    return StrategyChoice(
        strategy="human", settings={}, tier1=(), chosen_by=f"gate:{gate}", department=department
    )


def _agreed(frame: _Frame) -> Case:
    positions, detection = frame.item.positions, frame.detection
    if detection.complementary:
        merged = merge_complementary(positions)
        decision = Decision(
            winners=tuple(p.agent for p in positions),
            answer=merged.output,
            rung="merge",
            confidence=1.0,
            provenance=merged.provenance,
            conflicts_resolved=merged.conflicts_resolved,
            resolution_id=new_id("res", frame.decided_at),
        )
        outcome = Outcome.MERGED
    else:
        first = positions[0].output
        same = len({answer_hash(p.output) for p in positions}) == 1
        decision = Decision(
            winners=tuple(p.agent for p in positions),
            answer=_json(first) if same else None,
            rung="consensus",
            confidence=None,
        )
        outcome = Outcome.CONSENSUS
    return transition(
        frame.opening,
        outcome,
        tier=Tier.DIRECT_NEGOTIATION,
        classification=None,
        decision=decision,
        decided_at=frame.decided_at,
    )


def _settled(
    frame: _Frame, classification: Classification, outcome: TierOneOutcome, org: OrgChart | None
) -> Case:
    """A tier-1 decision: ``decided_by`` is the rung; the department is the parties' shared
    one (None when they span departments)."""
    assert outcome.group is not None
    assert outcome.rung is not None
    group = frame.detection.groups[outcome.group]
    return settle_on_winner(
        frame.opening,
        winners=group.agents,
        answer=group.answer,
        rung=outcome.rung,
        tier=Tier.DIRECT_NEGOTIATION,
        confidence=outcome.confidence,
        decided_by=outcome.rung,
        reasoning=outcome.attempts[-1].detail,
        decided_at=frame.decided_at,
        department=shared_department([p.agent for p in frame.item.positions], org),
        classification=classification,
        attempts=outcome.attempts,
    ).case


def _escalated(frame: _Frame, classification: Classification, outcome: TierOneOutcome) -> Case:
    positions = frame.item.positions
    target = escalation_target(classification, outcome.next_step)
    payload = EscalationPayload(
        summary=f"{frame.detection.description} on {frame.item.subject!r} ({frame.item.task_type})",
        reason=outcome.escalation_reason or "no tier-1 rung could decide",
        next_step=outcome.next_step,
        target_tier=target,
        outputs={p.agent: _json(p.output) for p in positions},
        evidence={
            p.agent: {
                "evidence": [e.content_hash for e in p.evidence],
                "sources": list(p.sources),
                "assumptions": list(p.assumptions),
                "reasoning": p.reasoning,
                "confidence": p.confidence,
            }
            for p in positions
        },
        strategies_tried=outcome.attempts,
        confidence=max((a.confidence for a in outcome.attempts), default=0.0),
    )
    return transition(
        frame.opening,
        Outcome.ESCALATED,
        tier=target,
        classification=classification,
        decision=None,
        attempts=outcome.attempts,
        escalation=payload,
        decided_at=frame.decided_at,
    )


def _json(value: object) -> JsonValue:
    return value  # type: ignore[return-value]  # outputs are validated JSON values
