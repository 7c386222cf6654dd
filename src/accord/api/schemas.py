"""The wire format of ``/api/v1``: request bodies (unknown fields refused) and answers.

Request models bound every string and list; the library validates the rest (an agent's
output, evidence) and its ``ValidationError`` becomes a 422 naming the field and the rule.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from accord.api.queries.case_timeline import TimelineEvent
from accord.approvals import MAX_WRITTEN_OUTCOME_CHARS, ApprovalItem, ParkedTask, Resumption
from accord.boundary import Boundary, ProbeAttempt
from accord.cases import Case, DissentRecord
from accord.crypto import RecordSignature
from accord.ledger import Checkpoint

NO_NUL = r"^[^\x00]*$"
"""Strings stored in columns may not hold NUL (PostgreSQL refuses it): a 400 here, not a 500."""
Short = Annotated[str, Field(min_length=1, max_length=256, pattern=NO_NUL)]


class _In(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class OwnPositionIn(_In):
    """A position without its agent: the caller's key says whose it is."""

    output: Any
    confidence: Annotated[float, Field(ge=0.0, le=1.0)] | None = None
    field_confidence: dict[str, Any] | None = None
    evidence: Annotated[list[dict[str, Any]], Field(max_length=50)] | None = None
    sources: Annotated[list[Any], Field(max_length=50)] | None = None
    assumptions: Annotated[list[Any], Field(max_length=50)] | None = None
    reasoning: Annotated[str, Field(max_length=20_000)] | None = None
    task_subset: Any = None


class PositionIn(OwnPositionIn):
    agent: Short


class SettleIn(_In):
    subject: Annotated[str, Field(min_length=1, max_length=2_000, pattern=NO_NUL)]
    positions: Annotated[list[PositionIn], Field(min_length=1, max_length=100)]
    task_type: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)] = "default"
    session_id: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)] | None = None


class SettleBatchIn(_In):
    requests: Annotated[list[SettleIn], Field(min_length=1, max_length=100)]


WrittenOutcome = Annotated[
    str, Field(min_length=1, max_length=MAX_WRITTEN_OUTCOME_CHARS, pattern=NO_NUL)
]
"""A reviewer's own outcome; the library refuses blank or non-printable text (422)."""


class DecideIn(_In):
    """Choose one of the item's options, write an outcome of your own, or deny them all
    (exactly one); reasoning is required."""

    choice: Short | None = None
    outcome: WrittenOutcome | None = None
    deny: bool = False
    reasoning: Annotated[str, Field(min_length=1, max_length=5_000)]


class Tokens(BaseModel):
    input: int
    output: int
    model_calls: int


class CaseSummary(BaseModel):
    """The decision as ``accord settle`` prints it."""

    case_id: str
    status: str
    winner: str | None
    winners: list[str]
    answer: Any
    rung: str | None
    kind: str | None
    severity: str | None
    dispute_type: str | None
    tier: str
    confidence: float | None
    dissent_ids: list[str]
    escalation_reason: str | None
    next_step: str | None
    duration_ms: int
    ledger_seqs: list[int]
    strategy: str | None
    approval_item_id: str | None
    tokens: Tokens

    @classmethod
    def of(cls, case: Case) -> CaseSummary:
        return cls.model_validate(case.summary())


class PositionOut(BaseModel):
    agent: str
    output: Any
    confidence: float | None
    reasoning: str | None
    evidence: list[Any]


class CaseOut(CaseSummary):
    subject: str
    task_type: str
    session_id: str | None
    created_at: datetime
    decided_at: datetime | None
    positions: list[PositionOut]

    @classmethod
    def of(cls, case: Case) -> CaseOut:
        positions = [
            PositionOut(
                agent=p.agent,
                output=p.model_dump(mode="json")["output"],
                confidence=p.confidence,
                reasoning=p.reasoning,
                evidence=[e.model_dump(mode="json") for e in p.evidence],
            )
            for p in case.positions
        ]
        return cls.model_validate(
            {
                **case.summary(),
                "subject": case.subject,
                "task_type": case.task_type,
                "session_id": case.session_id,
                "created_at": case.created_at,
                "decided_at": case.decided_at,
                "positions": positions,
            }
        )


class CaseRow(BaseModel):
    case_id: str
    session_id: str | None
    subject: str
    task_type: str
    status: str
    kind: str | None
    severity: str | None
    dispute_type: str | None
    tier: str
    winner: str | None
    rung: str | None
    escalated: bool
    created_at: str
    decided_at: str | None
    duration_ms: int


class CasePage(BaseModel):
    items: list[CaseRow]
    next_cursor: str | None


class ApprovalPage(BaseModel):
    items: list[dict[str, Any]]
    next_cursor: str | None


class VerifyOut(BaseModel):
    """``verified`` with the report, or not verified naming the first problem."""

    verified: bool
    entries: int | None = None
    checkpoints: int | None = None
    cases: int | None = None
    head_hash: str | None = None
    root_hash: str | None = None
    code: str | None = None
    message: str | None = None
    seq: int | None = None
    case_id: str | None = None


class CheckpointOut(BaseModel):
    """A signed checkpoint in the JSON ``accord ledger checkpoint`` prints (and ``--out``
    writes): ``Checkpoint.to_json_dict``, the one form of a checkpoint off the database."""

    record_type: Literal["ledger_checkpoint"]
    tree_size: int
    root_hash: str
    timestamp: str
    signer_kid: str
    signature: RecordSignature

    @classmethod
    def of(cls, checkpoint: Checkpoint) -> CheckpointOut:
        return cls.model_validate(checkpoint.to_json_dict())


class LedgerTail(BaseModel):
    entries: list[dict[str, Any]]


class Health(BaseModel):
    status: str
    detail: str | None = None


class ParkIn(_In):
    """The agent's task context, returned unchanged when the task resumes (JSON only)."""

    context: Annotated[dict[str, Any], Field(max_length=200)] = {}


class ParkedOut(BaseModel):
    task_id: str
    item_id: str
    agent_id: str
    parked_at: datetime
    resumed_at: datetime | None
    item_status: str

    @classmethod
    def of(cls, task: ParkedTask, item_status: str) -> ParkedOut:
        return cls(
            task_id=task.task_id,
            item_id=task.item_id,
            agent_id=task.agent_id,
            parked_at=task.parked_at,
            resumed_at=task.resumed_at,
            item_status=item_status,
        )


class WaitOut(BaseModel):
    """``resumed`` with the resumption (decision and context), or still ``pending``."""

    resumed: bool
    status: str
    resumption: Resumption | None


class DissentPage(BaseModel):
    items: list[DissentRecord]


class BoundaryList(BaseModel):
    items: list[Boundary]


class BoundaryOut(BaseModel):
    boundary: Boundary
    attempts: list[ProbeAttempt]


class Timeline(BaseModel):
    case_id: str
    events: list[TimelineEvent]


class PrecedentPage(BaseModel):
    """Signed bundles, best first, each with its derived ``superseded_by``."""

    items: list[dict[str, Any]]


class BulkDecisionIn(DecideIn):
    """One item of a batch decision: which item, and the decision as for a single one."""

    item_id: Annotated[str, Field(min_length=1, max_length=64, pattern=NO_NUL)]


class BulkDecideIn(_In):
    decisions: Annotated[list[BulkDecisionIn], Field(min_length=1, max_length=100)]


class BulkDecisionOut(BaseModel):
    """``decided`` with the item as it now stands, or ``refused`` with the refusal's body."""

    item_id: str
    outcome: str
    item: ApprovalItem | None = None
    error: dict[str, Any] | None = None


class BulkDecideOut(BaseModel):
    results: list[BulkDecisionOut]
