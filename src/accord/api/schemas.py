"""The wire format of ``/api/v1``: request bodies (unknown fields refused) and answers.

Request models bound every string and list; the library validates the rest (an agent's
output, evidence) and its ``ValidationError`` becomes a 422 naming the field and the rule.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from accord.api.queries.case_timeline import TimelineEvent
from accord.approvals import (
    MAX_WRITTEN_OUTCOME_CHARS,
    ActingDeadline,
    ApprovalItem,
    DecisionVerdict,
    ParkedTask,
    Resumption,
    verdict_of,
)
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


class ApprovalRequestIn(_In):
    """An agent's proposed action for people to approve (a gate): the agent is the key's."""

    subject: Annotated[str, Field(min_length=1, max_length=480, pattern=NO_NUL)]
    proposal: Any
    gate: Annotated[str, Field(min_length=1, max_length=64, pattern=NO_NUL)]
    reason: Annotated[str, Field(max_length=5_000, pattern=NO_NUL)] = ""
    task_type: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)] = "approval"
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


DEADLINE_DESCRIPTION = (
    "The deadline that will act next, while people decide: the approval item's own §12.4 "
    "timeout or the case's tier deadline, whichever is sooner; ``then`` says what happens at "
    "it. Null when nothing waits or no deadline is armed."
)


class DecisionOut(BaseModel):
    """A decision on an approval item in the one vocabulary: branch on ``verdict``."""

    verdict: DecisionVerdict = Field(
        description="What was decided: chosen (an option, see choice), written (a person's own "
        "outcome, see written_outcome), denied, expired (the timeout policy acted; choice is "
        "what it applied) or cancelled (the item was withdrawn: no decision)."
    )
    choice: str | None = Field(default=None, description="The option chosen (or applied).")
    written_outcome: str | None = Field(
        default=None, description="The outcome a person wrote instead of choosing an option."
    )
    reason: str | None = Field(default=None, description="The reviewer's reason.")
    decided_by: str | None = Field(default=None, description="Who decided (a principal id).")
    decided_at: datetime | None = None
    via: Literal["human", "timeout"] | None = None

    @classmethod
    def of(cls, item: ApprovalItem) -> DecisionOut | None:
        """The decision on ``item`` (None while it waits)."""
        verdict = verdict_of(item)
        if verdict is None:
            return None
        d = item.decision
        if d is None:
            return cls(verdict=verdict)
        return cls(
            verdict=verdict,
            choice=d.choice,
            written_outcome=d.written_outcome,
            reason=d.reason,
            decided_by=d.decided_by,
            decided_at=d.decided_at,
            via=d.via,
        )


class ApprovalItemOut(ApprovalItem):
    """An approval item with what was decided (``verdict``) and the deadline that will act on
    it while it waits (``acting_deadline``)."""

    verdict: DecisionVerdict | None = Field(
        default=None,
        description="What was decided (chosen, written, denied, expired, cancelled); null while "
        "pending. Branch on this, not on decision.outcome (deprecated).",
    )
    acting_deadline: ActingDeadline | None = Field(default=None, description=DEADLINE_DESCRIPTION)

    @classmethod
    def of(cls, item: ApprovalItem, acting: ActingDeadline | None) -> ApprovalItemOut:
        return cls.model_validate(
            {**dict(item), "verdict": verdict_of(item), "acting_deadline": acting}
        )


class CaseOut(CaseSummary):
    subject: str
    task_type: str
    session_id: str | None
    created_at: datetime
    decided_at: datetime | None
    positions: list[PositionOut]
    deadline: ActingDeadline | None = Field(default=None, description=DEADLINE_DESCRIPTION)
    decision: DecisionOut | None = Field(
        default=None,
        description="What people decided on the case's approval item, with the reviewer's "
        "reason and written outcome; null while it waits or when people were never asked.",
    )

    @classmethod
    def of(
        cls,
        case: Case,
        deadline: ActingDeadline | None = None,
        item: ApprovalItem | None = None,
    ) -> CaseOut:
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
                "deadline": deadline,
                "decision": None if item is None else DecisionOut.of(item),
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
    """A parked task, the deadline that will act on its item and, once decided, the decision
    (re-readable here however often the task has resumed)."""

    task_id: str
    item_id: str
    agent_id: str
    parked_at: datetime
    resumed_at: datetime | None
    item_status: str = Field(
        description="Deprecated (one release): the item's status, which says 'approved' for "
        "any chosen option; read verdict instead.",
        json_schema_extra={"deprecated": True},
    )
    verdict: DecisionVerdict | None = Field(
        default=None,
        description="What was decided (chosen, written, denied, expired, cancelled); null "
        "while people decide.",
    )
    deadline: ActingDeadline | None = Field(default=None, description=DEADLINE_DESCRIPTION)
    decision: DecisionOut | None = Field(
        default=None, description="The decision with the reviewer's reason and written outcome."
    )

    @classmethod
    def of(cls, task: ParkedTask, item: ApprovalItem, deadline: ActingDeadline | None) -> ParkedOut:
        return cls(
            task_id=task.task_id,
            item_id=task.item_id,
            agent_id=task.agent_id,
            parked_at=task.parked_at,
            resumed_at=task.resumed_at,
            item_status=item.status.value,
            verdict=verdict_of(item),
            deadline=deadline,
            decision=DecisionOut.of(item),
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
    """``decided`` with the item as it now stands (its ``verdict`` included), or ``refused``
    with the refusal's body."""

    item_id: str
    outcome: str
    item: ApprovalItemOut | None = None
    error: dict[str, Any] | None = None


class BulkDecideOut(BaseModel):
    results: list[BulkDecisionOut]
