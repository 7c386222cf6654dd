"""Accord as a LangGraph node: ``settle_node`` is the join after a ``Send`` fan-out.

The branches each return ``{positions_key: [position]}`` into a reducer channel (e.g.
``Annotated[list[dict], operator.add]``); ``settle_node`` settles them. LangGraph re-runs a node
from its start on every resume, so everything the node writes is keyed by the node's task
(``thread_id``, ``checkpoint_ns``, ``task_id`` from ``get_runtime().execution_info``): a re-run
settles and parks under the same idempotency key and claims the same resumption, writing
nothing.

When people must decide, the node parks the task and calls ``interrupt()`` with the approval
item's id. The resume value carries only ``{"item_id": ...}``; it is checked by the interrupt's
``response_schema`` (the right item, already decided in Accord's store), so a wrong-item or
premature resume is refused *by LangGraph* and the interrupt stays answerable. The outcome is
read from Accord's store, never from the resume payload. Requires ``accord[langgraph]``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any, Literal, cast, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from accord.errors import AccordError, ValidationError
from accord.integrations.versions import require_framework

LANGGRAPH_VERSION = require_framework("langgraph", minimum="1.2", below="2", extra="langgraph")

from langgraph.runtime import get_runtime  # noqa: E402  (after the version check)
from langgraph.types import Command, interrupt  # noqa: E402

from accord.app import Accord  # noqa: E402
from accord.approvals import AlreadyResumed, ApprovalCancelled, ApprovalStatus  # noqa: E402
from accord.cases import Case  # noqa: E402
from accord.log import get_logger  # noqa: E402

__all__ = [
    "LANGGRAPH_VERSION",
    "AccordOutcome",
    "pending_items",
    "resume_command",
    "resume_schema",
    "settle_node",
]

_log = get_logger(__name__)

OutcomeStatus = Literal[
    "settled", "merged", "no_conflict", "denied", "expired", "cancelled", "escalated"
]

_STATUSES = frozenset(get_args(OutcomeStatus))


class AccordOutcome(BaseModel):
    """What ``settle_node`` writes to ``output_key`` (as plain JSON: checkpointers differ).

    ``status`` is the case's, or the approval item's when people closed it (``denied``,
    ``expired`` — a timeout policy, never a person — ``cancelled``); ``answer`` is set only when
    the case settled (on a winner, a person's choice or their written outcome).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    case_id: str
    status: OutcomeStatus
    winner: str | None = None
    answer: Any = None
    rung: str | None = None
    dissent: tuple[str, ...] = ()
    ledger_seqs: tuple[int, ...] = ()
    item_id: str | None = None
    decided_by: str | None = None
    reason: str | None = None
    receipt: dict[str, Any] | None = None
    """People's decision as a signed receipt (:meth:`accord.Accord.receipt`), checkable
    offline; None when no person or timeout decided the case."""


def settle_node(
    accord: Accord,
    *,
    subject: str | Callable[[Mapping[str, Any]], str],
    positions_key: str = "positions",
    output_key: str = "accord",
    task_type: str = "default",
    parked_by: str | None = None,
) -> Callable[[Any], dict[str, Any]]:
    """A LangGraph node settling ``state[positions_key]`` and writing an :class:`AccordOutcome`
    (as a dict) to ``output_key``; ``parked_by`` owns a parked task (default
    ``graph:<thread_id>``). Needs a checkpointer (``integrations.no_checkpointer``)."""

    def node(state: Any) -> dict[str, Any]:
        info = get_runtime().execution_info
        if info is None or not info.thread_id:
            raise AccordError(
                "settle_node needs a checkpointer and a thread_id: a node re-run on resume "
                "is recognised by its thread, namespace and task",
                code="integrations.no_checkpointer",
            )
        key = _node_key(info.thread_id, info.checkpoint_ns, info.task_id)
        topic = subject(state) if callable(subject) else subject
        positions = list(state.get(positions_key) or [])
        case = accord.settle(
            topic,
            positions,
            task_type=task_type,
            session_id=info.thread_id,
            idempotency_key=key,
        )
        item_id = case.approval_item_id
        if item_id is None:  # decided without people: the case as settle returned it
            return {output_key: _outcome(accord, case).model_dump(mode="json")}
        handle = accord.park(
            case,
            parked_by or f"graph:{info.thread_id}",
            {
                "thread_id": info.thread_id,
                "checkpoint_ns": info.checkpoint_ns,
                "task_id": info.task_id,
            },
            idempotency_key=key,
        )
        item = accord.approvals.get(item_id)
        interrupt(
            {
                "accord_item_id": item_id,
                "case_id": case.case_id,
                "subject": topic,
                "options": list(item.options),
                "resume_with": {"item_id": item_id},
            },
            response_schema=resume_schema(accord, item_id),
        )
        # accepted: the item is decided (the schema checked); never raise from here on (a
        # value accepted then raised on would stick). The claim marks the task resumed by this
        # node's task; the outcome itself is read from the case and its item.
        try:
            handle.poll(claim=key)
        except (ApprovalCancelled, AlreadyResumed) as refused:
            _log.warning("settle_node.resume_claim_refused", code=refused.code, item_id=item_id)
        settled = accord.cases.get(case.case_id)  # as the decision left it
        return {output_key: _outcome(accord, settled).model_dump(mode="json")}

    return node


def resume_schema(accord: Accord, item_id: str) -> type[BaseModel]:
    """The interrupt's ``response_schema``: ``{"item_id": <this item>}``, accepted only once
    Accord's store holds the item decided (or cancelled); anything else is refused by
    LangGraph before the node sees it, so the interrupt can be answered again."""

    expected = item_id

    class AccordResume(BaseModel):
        """Resume with this item's id once it is decided; the decision is read from Accord."""

        model_config = ConfigDict(extra="ignore", frozen=True)

        item_id: str = Field(json_schema_extra={"const": expected})

        @model_validator(mode="after")
        def _this_item_decided(self) -> AccordResume:
            if self.item_id != expected:
                raise ValueError(f"this interrupt waits on approval {expected}, not {self.item_id}")
            if accord.approvals.get(expected).status is ApprovalStatus.PENDING:
                raise ValueError(f"approval {expected} is not decided yet; resume once it is")
            return self

    return AccordResume


def pending_items(graph: Any, config: Any) -> dict[str, str]:
    """The Accord approval items the thread's pending interrupts wait on: ``{interrupt id:
    item id}`` (interrupts not raised by :func:`settle_node` are left out)."""
    return _accord_items(_state(graph, config).interrupts)


def resume_command(accord: Accord, graph: Any, config: Any) -> Command[Any]:
    """The ``Command(resume=...)`` answering the thread's decided Accord interrupts.

    One interrupt pending: ``{"item_id": ...}``; several: a map keyed by interrupt id holding
    only the decided ones (the others stay pending). Refused: nothing pending
    (``integrations.nothing_pending``), a thread whose Accord interrupts were all answered
    already (``integrations.already_resumed`` — LangGraph itself would accept a second resume
    silently), no pending item decided yet (``integrations.not_decided``)."""
    state = _state(graph, config)
    waiting = _accord_items(state.interrupts)
    if not waiting:
        answered = [
            item for past in graph.get_state_history(config)
            for item in _accord_items(past.interrupts).values()
        ]  # fmt: skip
        if answered:
            raise AccordError(
                f"this thread's Accord interrupt ({answered[0]}) was resumed already",
                code="integrations.already_resumed",
                item_id=answered[0],
            )
        raise AccordError(
            "this thread has no pending Accord interrupt to resume",
            code="integrations.nothing_pending",
        )
    decided = {
        interrupt_id: {"item_id": item_id}
        for interrupt_id, item_id in waiting.items()
        if accord.approvals.get(item_id).status is not ApprovalStatus.PENDING
    }
    if not decided:
        first = next(iter(waiting.values()))
        raise AccordError(
            f"approval {first} is not decided yet; resume once people have decided",
            code="integrations.not_decided",
            item_id=first,
        )
    if len(state.interrupts) == 1:
        return Command(resume=next(iter(decided.values())))
    return Command(resume=decided)


def _state(graph: Any, config: Any) -> Any:
    try:
        return graph.get_state(config)
    except ValueError as exc:  # LangGraph's answer for a graph without a checkpointer
        raise AccordError(
            f"cannot read the thread's interrupts: {exc}", code="integrations.no_checkpointer"
        ) from exc


def _accord_items(interrupts: Any) -> dict[str, str]:
    return {
        pending.id: pending.value["accord_item_id"]
        for pending in interrupts
        if isinstance(pending.value, Mapping)
        and isinstance(pending.value.get("accord_item_id"), str)
    }


def _node_key(thread_id: str, checkpoint_ns: str, task_id: str) -> str:
    digest = hashlib.sha256(f"{thread_id}\x00{checkpoint_ns}\x00{task_id}".encode()).hexdigest()
    return f"langgraph:{digest}"


def _outcome(accord: Accord, case: Case) -> AccordOutcome:
    item = (
        accord.approvals.get(case.approval_item_id) if case.approval_item_id is not None else None
    )
    status: str = case.status.value
    if item is not None and item.status is ApprovalStatus.CANCELLED:
        status = "cancelled"
    decision = case.decision
    settled = status in ("settled", "merged", "no_conflict") and decision is not None
    made = item.decision if item is not None else None
    if status not in _STATUSES:  # pragma: no cover - a new case status
        raise ValidationError(f"unknown case status {status!r}", code="integrations.status")
    return AccordOutcome(
        case_id=case.case_id,
        status=cast(OutcomeStatus, status),
        winner=decision.winner if settled and decision is not None else None,
        answer=decision.answer if settled and decision is not None else None,
        rung=decision.rung if decision is not None else None,
        dissent=tuple(d.agent_id for d in case.dissent),
        ledger_seqs=case.ledger_seqs,
        item_id=case.approval_item_id,
        decided_by=made.decided_by if made is not None else None,
        reason=made.reason if made is not None else None,
        receipt=None if made is None or item is None else _receipt(accord, item.item_id),
    )


def _receipt(accord: Accord, item_id: str) -> dict[str, Any] | None:
    """The decision's receipt as JSON; None (logged) if it cannot be made: the node never
    raises after LangGraph accepted a resume value."""
    try:
        return accord.receipt(item_id).model_dump(mode="json")
    except AccordError as exc:
        _log.warning("settle_node.no_receipt", code=exc.code, item_id=item_id)
        return None
