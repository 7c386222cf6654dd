"""Accord as an MCP server on the official ``mcp`` SDK (2.x, ``MCPServer``): ``accord mcp --as
AGENT`` over stdio.

Tools: ``settle`` (with an idempotency key, so a client retrying after a timeout gets one
case), ``case_status``, ``park`` (the caller's task, keyed too), ``wait_for_decision``
(bounded: it answers ``pending`` when the wait runs out, never an error; a decision comes with
its signed receipt), ``receipt``, ``submit_position`` (to a collecting case naming the caller),
``open_dispute`` (the caller as complainant), ``submit_evidence`` (as a party) and
``search_precedents``. Resources: ``accord://cases/{case_id}``, ``accord://approvals/{item_id}``,
``accord://receipts/{item_id}``, ``accord://precedents/{jurisprudence_id}``. Who the caller is
comes only from ``--as`` (``agent``): no tool takes an agent id for the caller, and a client's
idempotency keys are scoped to it. Deciding
stays with reviewers (reviewer key, CLI, HTTP, the reviewer's pages). Requires ``accord[mcp]``.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Awaitable, Callable
from typing import Any

from accord.integrations.versions import require_framework

MCP_VERSION = require_framework("mcp", minimum="2.3", below="3", extra="mcp")

import anyio.to_thread  # noqa: E402
from mcp.server.mcpserver import MCPServer  # noqa: E402
from mcp.server.mcpserver.exceptions import ToolError  # noqa: E402
from mcp.types import ToolAnnotations  # noqa: E402
from pydantic import BaseModel, ConfigDict, Field  # noqa: E402

from accord.app import Accord  # noqa: E402
from accord.approvals import ApprovalDecision, ApprovalStatus  # noqa: E402
from accord.audit import DecisionReceipt  # noqa: E402
from accord.cases import Case, CollectingCase  # noqa: E402
from accord.disputes import StoredDispute  # noqa: E402
from accord.errors import AccordError, ValidationError  # noqa: E402
from accord.precedents import DEFAULT_LIMIT  # noqa: E402

__all__ = [
    "MCP_VERSION",
    "CaseResult",
    "DecisionResult",
    "ParkResult",
    "PrecedentsResult",
    "build_server",
]

MAX_WAIT_SECONDS = 55.0
Sleep = Callable[[float], Awaitable[object]]


class CaseResult(BaseModel):
    """A case as a tool answers it: status, the winner and answer once settled, the item
    people decide on while it is escalated."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    case_id: str
    subject: str
    status: str
    winner: str | None = None
    answer: Any = None
    rung: str | None = None
    approval_item_id: str | None = None
    ledger_seqs: tuple[int, ...] = ()

    @classmethod
    def of(cls, case: Case) -> CaseResult:
        decision = case.decision
        return cls(
            case_id=case.case_id,
            subject=case.subject,
            status=case.status.value,
            winner=decision.winner if decision is not None else None,
            answer=decision.answer if decision is not None else None,
            rung=decision.rung if decision is not None else None,
            approval_item_id=case.approval_item_id,
            ledger_seqs=case.ledger_seqs,
        )


class ParkResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    task_id: str
    item_id: str
    agent_id: str


class DecisionResult(BaseModel):
    """``pending`` while people decide (call again); else the item's status, decision and
    the decision's signed receipt (none for a cancelled item)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    item_id: str
    status: str
    decision: ApprovalDecision | None = None
    receipt: DecisionReceipt | None = None


class PositionIn(BaseModel):
    """One agent's output as the orchestrator reports it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: str = Field(min_length=1, max_length=256)
    output: Any
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    reasoning: str | None = None


class PrecedentsResult(BaseModel):
    """Signed jurisprudence bundles, best first, each with its derived ``superseded_by``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    items: list[dict[str, Any]]


def build_server(
    accord: Accord,
    *,
    agent: str,
    sleep: Sleep = asyncio.sleep,
    poll_interval: float = 0.5,
) -> MCPServer:
    """The MCP server acting as ``agent`` (the only identity it knows)."""
    if not agent:
        raise ValidationError("an MCP server acts as a named agent (--as)", field="agent")
    server: MCPServer = MCPServer(
        "accord",
        instructions=f"Accord settles disagreements between AI agents; you act as {agent}. "
        "Deciding an approval stays with people.",
    )

    def scoped(key: str | None) -> str | None:
        return None if key is None else f"mcp:{agent}:{key}"

    async def run(call: Callable[[], Any]) -> Any:
        try:
            return await anyio.to_thread.run_sync(call)
        except AccordError as refused:  # a refusal the client can read: "[code] message"
            raise ToolError(str(refused)) from refused

    @server.tool(annotations=ToolAnnotations(destructiveHint=False, idempotentHint=True))
    async def settle(
        subject: str,
        positions: list[PositionIn],
        task_type: str = "default",
        idempotency_key: str | None = None,
    ) -> CaseResult:
        """Settle agents' positions on one subject; retry with the same idempotency_key to
        get the same case (the same key with a different request is refused)."""
        raw = [p.model_dump(exclude_none=True) for p in positions]
        case = await run(
            functools.partial(
                accord.settle,
                subject,
                raw,
                task_type=task_type,
                idempotency_key=scoped(idempotency_key),
            )
        )
        return CaseResult.of(case)

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True))
    async def case_status(case_id: str) -> CaseResult:
        """A case's status, winner and answer, and the approval item people decide on."""
        return CaseResult.of(await run(functools.partial(accord.cases.get, case_id)))

    @server.tool(annotations=ToolAnnotations(destructiveHint=False, idempotentHint=True))
    async def park(
        case_id: str, context: dict[str, Any], idempotency_key: str | None = None
    ) -> ParkResult:
        """Park your task on a case waiting for people, with the context to resume it."""
        handle = await run(
            functools.partial(
                accord.park, case_id, agent, context, idempotency_key=scoped(idempotency_key)
            )
        )
        return ParkResult(task_id=handle.task_id, item_id=handle.item_id, agent_id=agent)

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True))
    async def wait_for_decision(item_id: str, timeout_s: float = 25.0) -> DecisionResult:
        """Wait up to timeout_s seconds (at most 55) for people to decide an approval item;
        answers status "pending" when the wait runs out: call again."""
        if not 0 <= timeout_s <= MAX_WAIT_SECONDS:
            raise ToolError(
                f"[integrations.wait_too_long] timeout_s must lie in [0, {MAX_WAIT_SECONDS}]"
            )
        polls = int(timeout_s / poll_interval)
        for attempt in range(polls + 1):
            item = await run(functools.partial(accord.approvals.get, item_id))
            if item.status is not ApprovalStatus.PENDING:
                made = None
                if item.decision is not None:
                    made = await run(functools.partial(accord.receipt, item_id))
                return DecisionResult(
                    item_id=item_id, status=item.status.value, decision=item.decision, receipt=made
                )
            if attempt < polls:
                await sleep(poll_interval)
        return DecisionResult(item_id=item_id, status="pending")

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True))
    async def receipt(item_id: str) -> DecisionReceipt:
        """A decided approval item's signed receipt: the decision, the ledger entry that
        recorded it and its inclusion proof (check it offline: accord receipt --verify)."""
        made: DecisionReceipt = await run(functools.partial(accord.receipt, item_id))
        return made

    @server.tool(annotations=ToolAnnotations(destructiveHint=False))
    async def submit_position(
        collecting_id: str,
        output: Any,
        confidence: float | None = None,
        reasoning: str | None = None,
    ) -> CollectingCase:
        """Submit your own position to a collecting case that names you as a party; the last
        party's position settles it (the answer then names its case_id)."""
        optional = {"confidence": confidence, "reasoning": reasoning}
        own = {"output": output, **{k: v for k, v in optional.items() if v is not None}}
        after: CollectingCase = await run(
            functools.partial(accord.collecting.submit, collecting_id, own, by=agent)
        )
        return after

    @server.tool(annotations=ToolAnnotations(destructiveHint=False))
    async def open_dispute(
        dispute_type: str,
        severity: str,
        respondents: list[str],
        subject: str,
        evidence: list[dict[str, Any]] | None = None,
        conditions: list[str] | None = None,
        start_at_appeal: bool = False,
    ) -> StoredDispute:
        """File a DCP-07 dispute with you as the complainant against the respondents (agent
        ids); evidence items are {evidence_type, reference, description, content,
        content_hash?}; conditions that hold (sentences) select the precedents it cites."""
        filing = {
            "dispute_type": dispute_type,
            "severity": severity,
            "complainant": agent,
            "respondents": respondents,
            "subject": subject,
            "evidence": evidence or [],
            "conditions": conditions or [],
            "start_at_appeal": start_at_appeal,
        }
        opened: StoredDispute = await run(functools.partial(accord.disputes.open, filing))
        return opened

    @server.tool(annotations=ToolAnnotations(destructiveHint=False))
    async def submit_evidence(dispute_id: str, evidence: list[dict[str, Any]]) -> StoredDispute:
        """Add your evidence to a dispute you are a party to, as one event (each item:
        {evidence_type, reference, description, content, content_hash?})."""
        after: StoredDispute = await run(
            functools.partial(accord.disputes.submit_evidence, dispute_id, evidence, by=agent)
        )
        return after

    @server.tool(annotations=ToolAnnotations(readOnlyHint=True))
    async def search_precedents(
        dispute_type: str, conditions: list[str] | None = None, limit: int = DEFAULT_LIMIT
    ) -> PrecedentsResult:
        """Precedents applying to a dispute type that list any of the conditions (sentences,
        case and whitespace do not matter) as applicable and none as inapplicable: highest
        authority first, then the most recent; superseded ones last."""
        found = await run(
            functools.partial(
                accord.precedents.search, dispute_type, conditions or (), limit=limit
            )
        )
        return PrecedentsResult(items=[p.to_json_dict() for p in found])

    @server.resource("accord://approvals/{item_id}", mime_type="application/json")
    async def approval_resource(item_id: str) -> str:
        """An approval item as JSON: its options, status and decision."""
        item = await run(functools.partial(accord.approvals.get, item_id))
        return str(item.model_dump_json())

    @server.resource("accord://precedents/{jurisprudence_id}", mime_type="application/json")
    async def precedent_resource(jurisprudence_id: str) -> str:
        """A signed jurisprudence bundle with its derived superseded_by, as JSON."""
        found = await run(functools.partial(accord.precedents.get, jurisprudence_id))
        return json.dumps(found.to_json_dict())

    @server.resource("accord://receipts/{item_id}", mime_type="application/json")
    async def receipt_resource(item_id: str) -> str:
        """A decided approval item's signed receipt as JSON."""
        made: DecisionReceipt = await run(functools.partial(accord.receipt, item_id))
        return made.model_dump_json()

    @server.resource("accord://cases/{case_id}", mime_type="application/json")
    async def case_resource(case_id: str) -> str:
        """A case as JSON (status, decision, the approval item)."""
        case = await run(functools.partial(accord.cases.get, case_id))
        return CaseResult.of(case).model_dump_json()

    return server
