"""Which signed record states each field of a stored case, and how (the audit's one description).

``SIGNED_PATHS`` says, per ledger event (the record models of ``accord.cases.records``),
where each path's value sits in the record;
``CASE_DOCUMENT`` says how the same path is read from a stored :class:`Case` (or declares the
field unsigned, with the reason). The tables' columns are derived from the document by the
project's own row builders (``case_columns``, ``party_rows``, ``dissent_row``); ``CASE_COLUMNS``,
``PARTY_COLUMNS`` and ``DISSENT_COLUMNS`` name the document path each column comes from, so every
column of ``store/tables.py`` is accounted for (a test introspects the tables and the models).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from accord.audit.paths import Extract, Unsigned, at, const, each
from accord.cases.case import Case, DissentRecord
from accord.cases.records import (
    CaseAbandoned,
    CaseEscalated,
    CaseOpened,
    CaseResolved,
    ConsensusRecorded,
    OutputsMerged,
    dissent_entries,
    position_record,
)
from accord.cases.signable import AnswerHashes, answer_hash, basis_points
from accord.clock import isoformat

# --- where signed records state each path -------------------------------------------------

#: Event kinds as the audit folds them: a ``dispute_escalated`` without a resolution log is the
#: tier-1 → tier-2 hand-over written before the strategy's outcome.
HANDED_OVER = "dispute_escalated/hand_over"


_OPENING: dict[str, Extract] = {
    "case_id": at("dispute_id"),
    "session_id": at("session_id"),
    "subject": at("subject", "description"),
    "task_type": at("subject", "task_type"),
    "created_at": at("opened_at"),
    "detection.output_kind": at("output_kind"),
    "detection.max_gap": at("max_gap_bp"),
    "detection.field_conflicts.path": at("conflict_fields"),
    "positions.agent": each("positions", "agent_id"),
    "positions.output": each("positions", "answer"),  # hashed once folded (HASHED_PATHS)
    "positions.confidence": each("positions", "confidence_bp"),
    "positions.evidence": each("positions", "evidence"),
    "positions.sources": each("positions", "sources"),
    "positions.assumptions": each("positions", "assumptions"),
}
#: Paths whose signed values are kept as their hashes (a large ledger's answers need not fit
#: in memory); the stored side hashes the same way.
HASHED_PATHS = ("positions.output",)
_LOG: dict[str, Extract] = {
    "detection.kind": at("log", "kind"),
    "detection.severity": at("log", "severity"),
    "decision.rung": at("log", "strategy"),
    "decision.winner": at("log", "winner"),
    "decision.confidence": at("log", "confidence_bp"),
    "decided_at": at("log", "time"),
    "duration_ms": at("log", "duration_ms"),
    "escalated": at("log", "escalated"),
    "log.agents": at("log", "agents"),
}
_TOKENS: dict[str, Extract] = {
    "tokens_in": at("tokens", "input"),
    "tokens_out": at("tokens", "output"),
    "model_calls": at("tokens", "model_calls"),
}
_SETTLED: dict[str, Extract] = {
    "status": const("settled"),
    "dcp_status": const("resolved"),
    "tier": at("resolution_level"),
    "decision.resolution_id": at("resolution_id"),
    "decision.rung": at("rung"),
    "decision.winner": at("winner"),
    "decision.winners": at("winners"),
    "decision.answer": at("answer_hash"),
    "attempts.rung": each("attempts", "rung"),
    "attempts.decided": each("attempts", "decided"),
    "attempts.detail": each("attempts", "detail"),
    "attempts.tier": each("attempts", "tier"),
    "dissent": at("dissent"),
    "decided_at": at("decided_at"),
    "approval_item_id": at("approval_item_id"),
    **_TOKENS,
}

SIGNED_PATHS: Mapping[str, Mapping[str, Extract]] = {
    CaseOpened.event_type: {
        **_OPENING,
        "classification.dispute_type": at("dispute_type"),
        "classification.severity": at("severity"),
        "classification.starting_tier": at("current_escalation_level"),
        "classification.kind": at("conflict", "kind"),
        "classification.strategy_chain": at("conflict", "strategy_chain"),
        **_LOG,
    },
    ConsensusRecorded.event_type: {
        **_OPENING,
        **_LOG,
        "status": const("no_conflict"),
        "dcp_status": const("resolved"),
        "tier": const("direct_negotiation"),
        "decision.answer": at("answer_hash"),
        "decision.winners": at("winners"),
    },
    OutputsMerged.event_type: {
        **_OPENING,
        **_LOG,
        "status": const("merged"),
        "dcp_status": const("resolved"),
        "tier": const("direct_negotiation"),
        "decision.answer": at("merged_hash"),
        "decision.winners": at("winners"),
        "decision.resolution_id": at("resolution_id"),
        "decision.provenance": at("provenance"),
        "decision.conflicts_resolved": at("conflicts_resolved"),
    },
    HANDED_OVER: {"strategy": at("next_step")},
    CaseEscalated.event_type: {
        **_LOG,
        **_TOKENS,
        "status": const("escalated"),
        "dcp_status": lambda r: "appealing" if r.get("approval_item_id") else "escalated",
        "tier": at("to_level"),
        "escalation.target_tier": at("to_level"),
        "escalation.next_step": at("next_step"),
        "escalation.reason": at("reason"),
        "attempts.rung": each("strategies_tried", "rung"),
        "attempts.decided": each("strategies_tried", "decided"),
        "attempts.detail": each("strategies_tried", "detail"),
        "attempts.tier": each("strategies_tried", "tier"),
        "approval_item_id": at("approval_item_id"),
    },
    CaseResolved.event_type: {**_LOG, **_SETTLED},
    CaseAbandoned.event_type: {
        **_LOG,
        # a person's or a timeout's denial is final as ``denied``; an undecided expiry ``expired``
        "status": lambda r: "denied" if r.get("outcome") == "denied" else "expired",
        "dcp_status": const("abandoned"),
        "escalation.reason": at("reason"),
        "decided_at": at("decided_at"),
    },
}

# --- how each path is read from a stored case ---------------------------------------------


@dataclass(frozen=True)
class FromPosition:
    """A field of each position as its signed record states it (``position_record``)."""

    key: str


CaseField = Callable[[Case], Any] | FromPosition | Unsigned


def _decision(name: str, transform: Callable[[Any], Any] | None = None) -> Callable[[Case], Any]:
    def read(case: Case) -> Any:
        if case.decision is None:
            return None
        value = getattr(case.decision, name)
        return transform(value) if transform is not None else value

    return read


def _escalation(name: str) -> Callable[[Case], Any]:
    def read(case: Case) -> Any:
        if case.escalation is None:
            return None
        value = getattr(case.escalation, name)
        return getattr(value, "value", value)

    return read


def _attempts(name: str) -> Callable[[Case], Any]:
    return lambda case: [getattr(a, name) for a in case.attempts]


def _enum(value: Any) -> Any:
    return getattr(value, "value", value)


def _listed(value: Any) -> Any:
    return None if value is None else list(value)


def _classification(name: str, transform: Callable[[Any], Any] = _enum) -> Callable[[Case], Any]:
    def read(case: Case) -> Any:
        c = case.classification
        return None if c is None else transform(getattr(c, name))

    return read


_COPY_FOR_THE_NEXT_TIER = Unsigned(
    "the escalation payload handed to the next tier is rebuilt from the positions; "
    "only its reason, next step and target tier are signed"
)
_DETECTION_DETAIL = Unsigned(
    "detector output beyond kind, severity, output kind, field paths and largest gap is "
    "re-derivable from the signed positions and not itself signed"
)

CASE_DOCUMENT: Mapping[str, CaseField] = {
    "case_id": lambda c: c.case_id,
    "session_id": lambda c: c.session_id,
    "subject": lambda c: c.subject,
    "task_type": lambda c: c.task_type,
    "status": lambda c: c.status.value,
    "dcp_status": lambda c: c.dcp_status.value,
    "tier": lambda c: c.tier.value,
    "escalated": lambda c: c.status.value == "escalated",
    "positions.agent": FromPosition("agent_id"),
    "positions.output": FromPosition("answer"),
    "positions.confidence": FromPosition("confidence_bp"),
    "positions.evidence": FromPosition("evidence"),
    "positions.sources": FromPosition("sources"),
    "positions.assumptions": FromPosition("assumptions"),
    "positions.field_confidence": Unsigned("per-field confidence is not in the signed position"),
    "positions.reasoning": Unsigned("an agent's free-text reasoning is not signed"),
    "positions.task_subset": Unsigned("the task subset only decides complementarity"),
    "log.agents": lambda c: [p.agent for p in c.positions],
    "detection.kind": lambda c: _enum(c.detection.kind),
    "detection.severity": lambda c: _enum(c.detection.severity),
    "detection.output_kind": lambda c: c.detection.output_kind.value,
    "detection.field_conflicts.path": lambda c: [f.path for f in c.detection.field_conflicts],
    "detection.max_gap": lambda c: basis_points(c.detection.max_gap),
    "detection.has_conflict": _DETECTION_DETAIL,
    "detection.complementary": _DETECTION_DETAIL,
    "detection.groups": _DETECTION_DETAIL,
    "detection.majority": _DETECTION_DETAIL,
    "detection.description": _DETECTION_DETAIL,
    "detection.field_conflicts.kind": _DETECTION_DETAIL,
    "detection.field_conflicts.severity": _DETECTION_DETAIL,
    "detection.field_conflicts.groups": _DETECTION_DETAIL,
    "detection.field_conflicts.gap": _DETECTION_DETAIL,
    "classification.kind": _classification("kind"),
    "classification.severity": _classification("severity"),
    "classification.dispute_type": _classification("dispute_type"),
    "classification.starting_tier": _classification("starting_tier"),
    "classification.strategy_chain": _classification("strategy_chain", list),
    "decision.winner": _decision("winner"),
    "decision.winners": _decision("winners", list),
    "decision.answer": _decision("answer", answer_hash),
    "decision.rung": _decision("rung"),
    "decision.confidence": lambda c: basis_points(c.decision.confidence) if c.decision else 0,
    "decision.provenance": _decision("provenance"),
    "decision.conflicts_resolved": _decision("conflicts_resolved", _listed),
    "decision.resolution_id": _decision("resolution_id"),
    "attempts.rung": _attempts("rung"),
    "attempts.decided": _attempts("decided"),
    "attempts.detail": _attempts("detail"),
    "attempts.tier": lambda case: [a.tier.value for a in case.attempts],
    "attempts.group": Unsigned("the rung's group index restates the winner, which is signed"),
    "attempts.confidence": Unsigned("a rung's own confidence; the decision's is signed"),
    "escalation.reason": _escalation("reason"),
    "escalation.next_step": _escalation("next_step"),
    "escalation.target_tier": _escalation("target_tier"),
    "escalation.summary": _COPY_FOR_THE_NEXT_TIER,
    "escalation.outputs": _COPY_FOR_THE_NEXT_TIER,
    "escalation.evidence": _COPY_FOR_THE_NEXT_TIER,
    "escalation.strategies_tried": _COPY_FOR_THE_NEXT_TIER,
    "escalation.confidence": _COPY_FOR_THE_NEXT_TIER,
    "dissent": dissent_entries,
    "created_at": lambda c: isoformat(c.created_at),
    "decided_at": lambda c: isoformat(c.decided_at or c.created_at),
    "duration_ms": lambda c: c.duration_ms,
    "ledger_seqs": lambda c: list(c.ledger_seqs),
    "department": Unsigned("the org chart's department at settle time is not in the record"),
    "strategy": lambda c: c.strategy,
    "approval_item_id": lambda c: c.approval_item_id,
    "tokens_in": lambda c: c.tokens_in,
    "tokens_out": lambda c: c.tokens_out,
    "model_calls": lambda c: c.model_calls,
}
"""Every field of the case document (dotted through nested records): how it is read for the
comparison, or why it is not signed. ``ledger_seqs`` is checked against the seqs of the
records settle wrote."""

READERS: Mapping[str, Callable[[Case], Any]] = {
    path: read for path, read in CASE_DOCUMENT.items() if callable(read)
}
POSITION_FIELDS: Mapping[str, str] = {
    path: read.key for path, read in CASE_DOCUMENT.items() if isinstance(read, FromPosition)
}


def stored_view(case: Case, hashes: AnswerHashes) -> dict[str, Any]:
    """The stored case as the signed view would state it (answers as their hashes)."""
    view = {path: read(case) for path, read in READERS.items()}
    records: list[dict[str, Any]] = [dict(position_record(p)) for p in case.positions]
    for record, position in zip(records, case.positions, strict=True):
        record["answer"] = hashes(position.output)
    for path, key in POSITION_FIELDS.items():
        view[path] = [r[key] for r in records]
    return view


# --- the columns, each named by the document path it is built from ------------------------

DOCUMENT = "document"
CASE_COLUMNS: Mapping[str, str] = {
    "case_id": "case_id",
    "session_id": "session_id",
    "subject": "subject",
    "task_type": "task_type",
    "status": "status",
    "dcp_status": "dcp_status",
    "kind": "detection.kind",
    "severity": "detection.severity",
    "dispute_type": "classification.dispute_type",
    "tier": "tier",
    "winner": "decision.winner",
    "rung": "decision.rung",
    "confidence_bp": "decision.confidence",
    "escalated": "escalated",
    "created_at": "created_at",
    "decided_at": "decided_at",
    "duration_ms": "duration_ms",
    "document": DOCUMENT,
}
PARTY_COLUMNS: Mapping[str, str] = {
    "case_id": "case_id",
    "agent_id": "positions.agent",
    "task_type": "task_type",
    "answer_key": "positions.output",
    "outcome": "decision.winners",
    "created_at": "created_at",
}
DISSENT_COLUMNS: Mapping[str, str] = {
    name: name
    for name in (
        "dissent_id",
        "case_id",
        "agent_id",
        "task_type",
        "kind",
        "severity",
        "department",
        "strategy",
        "created_at",
    )
} | {"document": DOCUMENT}
"""Each ``dissents`` column is the dissent record's field of the same name (``dissent_row``)."""

# --- a dissent record: what its signed entry states, and what it copies from its case ---------

DissentField = Callable[[DissentRecord, Case], tuple[Any, Any]] | Unsigned


def _copied(read: Callable[[DissentRecord], Any], source: Callable[[Case], Any]) -> DissentField:
    return lambda d, case: (source(case), read(d))


def _position_of(d: DissentRecord, case: Case) -> Any:
    return next((p for p in case.positions if p.agent == d.agent_id), None)


def _answer(case: Case) -> Any:
    return answer_hash(case.decision.answer) if case.decision else None


IN_ENTRY = "dissent"
"""A dissent field the case's signed dissent entries state (compared through path ``dissent``)."""

DISSENT_DOCUMENT: Mapping[str, DissentField | str] = {
    "dissent_id": IN_ENTRY,
    "agent_id": IN_ENTRY,
    "strategy": IN_ENTRY,
    "reasoning": IN_ENTRY,
    "decided_by": IN_ENTRY,
    "created_at": IN_ENTRY,
    "arguments": IN_ENTRY,
    "case_id": _copied(lambda d: d.case_id, lambda c: c.case_id),
    "task_type": _copied(lambda d: d.task_type, lambda c: c.task_type),
    "kind": _copied(lambda d: d.kind, lambda c: _enum(c.detection.kind)),
    "severity": _copied(lambda d: d.severity, lambda c: _enum(c.detection.severity)),
    "subject": _copied(lambda d: d.subject, lambda c: c.subject),
    "department": _copied(lambda d: d.department, lambda c: c.department),
    "winners": _copied(
        lambda d: list(d.winners), lambda c: list(c.decision.winners) if c.decision else []
    ),
    "winning_answer": _copied(lambda d: answer_hash(d.winning_answer), _answer),
    "positions": _copied(lambda d: list(d.positions), lambda c: list(c.positions)),
    "position": lambda d, case: (_position_of(d, case), d.position),
}
"""Every field of a dissent record: the fields its signed entry states are compared through the
case's ``dissent`` path; the others must equal what they copy from the (audited) case."""
