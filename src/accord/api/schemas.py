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

    model_config = ConfigDict(use_attribute_docstrings=True)

    output: Any
    """The agent's answer: any JSON value."""
    confidence: Annotated[float, Field(ge=0.0, le=1.0)] | None = None
    """How sure the agent is, 0 to 1."""
    field_confidence: dict[str, Any] | None = None
    """How sure it is of each field of a structured answer."""
    evidence: Annotated[list[dict[str, Any]], Field(max_length=50)] | None = None
    """What the answer rests on (up to 50 items)."""
    sources: Annotated[list[Any], Field(max_length=50)] | None = None
    """Where the answer comes from (up to 50)."""
    assumptions: Annotated[list[Any], Field(max_length=50)] | None = None
    """What the agent assumed (up to 50)."""
    reasoning: Annotated[str, Field(max_length=20_000)] | None = None
    """Why the agent answers so."""
    task_subset: Any = None
    """Which part of the task the answer covers, if only a part."""


class PositionIn(OwnPositionIn):
    model_config = ConfigDict(use_attribute_docstrings=True)

    agent: Short
    """The agent whose position it is (an agent key may give only its own)."""


class SettleIn(_In):
    model_config = ConfigDict(use_attribute_docstrings=True)

    subject: Annotated[str, Field(min_length=1, max_length=2_000, pattern=NO_NUL)]
    """What the agents disagree about."""
    positions: Annotated[list[PositionIn], Field(min_length=1, max_length=100)]
    """Each agent's position (1 to 100)."""
    task_type: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)] = "default"
    """The task type (selects the policy)."""
    session_id: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)] | None = None
    """A session to group cases, if any."""


class ApprovalRequestIn(_In):
    """An agent's proposed action for people to approve (a gate): the agent is the key's."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    subject: Annotated[str, Field(min_length=1, max_length=480, pattern=NO_NUL)]
    """What the action is, as reviewers see it (1 to 480 characters)."""
    proposal: Any
    """The proposed action itself: any JSON value, shown in the item and bound by hash."""
    gate: Annotated[str, Field(min_length=1, max_length=64, pattern=NO_NUL)]
    """The gate asking (1 to 64 characters): its ``policy:<gate>`` position objects."""
    reason: Annotated[str, Field(max_length=5_000, pattern=NO_NUL)] = ""
    """Why the agent proposes it (at most 5,000 characters)."""
    task_type: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)] = "approval"
    """The task type (selects the policy; 1 to 128 characters)."""
    session_id: Annotated[str, Field(min_length=1, max_length=128, pattern=NO_NUL)] | None = None
    """A session to group cases, if any (1 to 128 characters)."""


class SettleBatchIn(_In):
    model_config = ConfigDict(use_attribute_docstrings=True)

    requests: Annotated[list[SettleIn], Field(min_length=1, max_length=100)]
    """The disagreements, settled one by one (at most 100)."""


WrittenOutcome = Annotated[
    str, Field(min_length=1, max_length=MAX_WRITTEN_OUTCOME_CHARS, pattern=NO_NUL)
]
"""A reviewer's own outcome; the library refuses blank or non-printable text (422)."""


class DecideIn(_In):
    """Choose one of the item's options, write an outcome of your own, or deny them all
    (exactly one); reasoning is required."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    choice: Short | None = None
    """The option chosen (one of the item's options); or give outcome, or deny."""
    outcome: WrittenOutcome | None = None
    """An outcome you write yourself instead of choosing an option."""
    deny: bool = False
    """Deny every option (the case is denied)."""
    reasoning: Annotated[str, Field(min_length=1, max_length=5_000)]
    """Why you decided so (required, recorded and signed)."""


class Tokens(BaseModel):
    """Model tokens a case used."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    input: int
    """Input tokens."""
    output: int
    """Output tokens."""
    model_calls: int
    """Model calls made."""


class CaseSummary(BaseModel):
    """The decision as ``accord settle`` prints it."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    case_id: str
    """The case's id."""
    status: str
    """settled, merged, escalated, decided, denied, expired or another case status."""
    winner: str | None
    """The agent whose answer was taken, if one was."""
    winners: list[str]
    """Every agent whose answer was taken (a merge may take several)."""
    answer: Any
    """The settled answer (any JSON value), or null."""
    rung: str | None
    """Which rung of the ladder settled it (source, confidence, authority, vote, judge...)."""
    kind: str | None
    """The kind of conflict detected."""
    severity: str | None
    """low, medium, high or critical."""
    dispute_type: str | None
    """The DCP-07 dispute type the conflict maps to."""
    tier: str
    """The resolution tier the case reached."""
    confidence: float | None
    """How sure the resolution is (0 to 1), if it says."""
    dissent_ids: list[str]
    """The dissent records kept for the positions that lost."""
    escalation_reason: str | None
    """Why the case went to people, if it did."""
    next_step: str | None
    """What happens next, in words."""
    duration_ms: int
    """How long settling took, in milliseconds."""
    ledger_seqs: list[int]
    """The ledger entries that record the case."""
    strategy: str | None
    """The strategy that settled it, if named."""
    approval_item_id: str | None
    """The approval item people decide, when escalated."""
    tokens: Tokens
    """Model tokens used settling it."""

    @classmethod
    def of(cls, case: Case) -> CaseSummary:
        return cls.model_validate(case.summary())


class PositionOut(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    agent: str
    """The agent."""
    output: Any
    """Its answer."""
    confidence: float | None
    """How sure it was, 0 to 1."""
    reasoning: str | None
    """Why it answered so."""
    evidence: list[Any]
    """What its answer rests on."""


DEADLINE_DESCRIPTION = (
    "The deadline that will act next, while people decide: the approval item's own §12.4 "
    "timeout or the case's tier deadline, whichever is sooner; ``then`` says what happens at "
    "it. Null when nothing waits or no deadline is armed."
)


class DecisionOut(BaseModel):
    """A decision on an approval item in the one vocabulary: branch on ``verdict``."""

    model_config = ConfigDict(use_attribute_docstrings=True)

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
    """When it was decided."""
    via: Literal["human", "timeout"] | None = None
    """`human` (a person decided) or `timeout` (the deadline policy acted)."""

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
    model_config = ConfigDict(use_attribute_docstrings=True)

    subject: str
    """What the agents disagreed about."""
    task_type: str
    """The task type (selects the policy)."""
    session_id: str | None
    """The session the case belongs to, if any."""
    created_at: datetime
    """When the case was opened."""
    decided_at: datetime | None
    """When it was decided, if it was."""
    positions: list[PositionOut]
    """Each agent's position."""
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
    model_config = ConfigDict(use_attribute_docstrings=True)

    case_id: str
    """The case's id."""
    session_id: str | None
    """The session the case belongs to, if any."""
    subject: str
    """What the agents disagreed about."""
    task_type: str
    """The task type."""
    status: str
    """The case's status."""
    kind: str | None
    """The kind of conflict detected."""
    severity: str | None
    """low, medium, high or critical."""
    dispute_type: str | None
    """The DCP-07 dispute type."""
    tier: str
    """The tier the case reached."""
    winner: str | None
    """The agent whose answer was taken, if one was."""
    rung: str | None
    """The rung that settled it."""
    escalated: bool
    """Whether it went to people."""
    created_at: str
    """When it was opened (ISO 8601)."""
    decided_at: str | None
    """When it was decided (ISO 8601), if it was."""
    duration_ms: int
    """How long settling took, in milliseconds."""


class CasePage(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    items: list[CaseRow]
    """The cases of this page, newest first."""
    next_cursor: str | None
    """Pass back as `cursor` for the next page; null on the last page."""


class ApprovalPage(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    items: list[dict[str, Any]]
    """The approval items of this page, queue order."""
    next_cursor: str | None
    """Pass back as `cursor` for the next page; null on the last page."""


class VerifyOut(BaseModel):
    """``verified`` with the report, or not verified naming the first problem."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    verified: bool
    """Whether the ledger verified."""
    entries: int | None = None
    """Entries checked."""
    checkpoints: int | None = None
    """Checkpoints checked."""
    cases: int | None = None
    """Cases checked."""
    head_hash: str | None = None
    """The newest entry's hash."""
    root_hash: str | None = None
    """The Merkle root over every entry."""
    code: str | None = None
    """The first problem's code, when not verified."""
    message: str | None = None
    """The first problem, in words."""
    seq: int | None = None
    """The entry where it was found."""
    case_id: str | None = None
    """The case it concerns, if one."""


class CheckpointOut(BaseModel):
    """A signed checkpoint in the JSON ``accord ledger checkpoint`` prints (and ``--out``
    writes): ``Checkpoint.to_json_dict``, the one form of a checkpoint off the database."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    record_type: Literal["ledger_checkpoint"]
    """Always `ledger_checkpoint`."""
    tree_size: int
    """How many entries the checkpoint covers."""
    root_hash: str
    """The Merkle root over those entries (hex)."""
    timestamp: str
    """When it was signed (ISO 8601)."""
    signer_kid: str
    """The service key that signed it."""
    signature: RecordSignature
    """The signature over the checkpoint's canonical bytes."""

    @classmethod
    def of(cls, checkpoint: Checkpoint) -> CheckpointOut:
        return cls.model_validate(checkpoint.to_json_dict())


class LedgerTail(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    entries: list[dict[str, Any]]
    """The newest ledger entries, newest first."""


class Health(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    status: str
    """`ok`, or `unavailable`."""
    detail: str | None = None
    """Why not ready, when unavailable."""


class ParkIn(_In):
    """The agent's task context, returned unchanged when the task resumes (JSON only)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    context: Annotated[dict[str, Any], Field(max_length=200)] = {}
    """Your task's context (JSON object), returned unchanged when it resumes."""


class ParkedOut(BaseModel):
    """A parked task, the deadline that will act on its item and, once decided, the decision
    (re-readable here however often the task has resumed)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    task_id: str
    """The parked task's id."""
    item_id: str
    """The approval item it waits on."""
    agent_id: str
    """The agent that parked it."""
    parked_at: datetime
    """When it was parked."""
    resumed_at: datetime | None
    """When the decision was first delivered, if it was."""
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

    model_config = ConfigDict(use_attribute_docstrings=True)

    resumed: bool
    """Whether the decision is delivered in this answer."""
    status: str
    """The item's status (pending while people decide)."""
    resumption: Resumption | None
    """The decision and your context, once resumed."""


class DissentPage(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    items: list[DissentRecord]
    """The dissent records of this page, newest first."""


class BoundaryList(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    items: list[Boundary]
    """The boundary conflicts, newest first."""


class BoundaryOut(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    boundary: Boundary
    """The boundary conflict."""
    attempts: list[ProbeAttempt]
    """Every probe attempt made on it, oldest first."""


class Timeline(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    case_id: str
    """The case."""
    events: list[TimelineEvent]
    """What happened to it, oldest first."""


class PrecedentPage(BaseModel):
    """Signed bundles, best first, each with its derived ``superseded_by``."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    items: list[dict[str, Any]]
    """The signed precedent bundles, best first."""


class BulkDecisionIn(DecideIn):
    """One item of a batch decision: which item, and the decision as for a single one."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    item_id: Annotated[str, Field(min_length=1, max_length=64, pattern=NO_NUL)]
    """The approval item decided."""


class BulkDecideIn(_In):
    model_config = ConfigDict(use_attribute_docstrings=True)

    decisions: Annotated[list[BulkDecisionIn], Field(min_length=1, max_length=100)]
    """The decisions, one per item (at most 100); each is applied or refused on its own."""


class BulkDecisionOut(BaseModel):
    """``decided`` with the item as it now stands (its ``verdict`` included), or ``refused``
    with the refusal's body."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    item_id: str
    """The approval item."""
    outcome: str
    """`decided` or `refused`."""
    item: ApprovalItemOut | None = None
    """The item as it now stands, when decided."""
    error: dict[str, Any] | None = None
    """The refusal's error body, when refused."""


class BulkDecideOut(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    results: list[BulkDecisionOut]
    """One result per decision, in the order given."""
