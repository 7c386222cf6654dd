"""Accord as the OpenAI Agents SDK's approval gate: people decide tool calls, exactly once.

``AccordApprovals(accord, agent_id=..., gate=...)`` gives a tool a side-effect-free
``needs_approval`` predicate and a tool input ``guardrail()``. When a run stops on
interruptions, ``park(result, run_key=...)`` asks people about each one
(:meth:`accord.Accord.request_approval`, keyed by ``run_key`` and the call id) and keeps the
run's saved state in Accord's store with its SHA-256. ``resume(task_id, agent=...)``, from any
process, refuses a saved state whose digest no longer matches, turns each decision into the
SDK's ``approve`` / ``reject`` (a denial's reason, a written outcome or an expiry becomes the
rejection message the model reads) and runs on.

The SDK's saved state is not authenticated and a state approved and resumed twice runs its
tools twice; so the decision is consumed by the guardrail, at execution, once: it allows a
call only if Accord approved that call, with the same arguments (SHA-256 of their canonical
JSON), and nobody consumed the approval before. Requires ``accord[openai-agents]``.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from accord.errors import AccordError, ValidationError
from accord.integrations.versions import require_framework

OPENAI_AGENTS_VERSION = require_framework(
    "openai-agents", minimum="0.24", below="0.25", extra="openai-agents"
)

from agents import Agent, Runner, RunResult, RunState  # noqa: E402  (after the version check)
from agents.tool_guardrails import (  # noqa: E402
    ToolGuardrailFunctionOutput,
    ToolInputGuardrail,
    ToolInputGuardrailData,
)

from accord.app import Accord  # noqa: E402
from accord.approvals import AlreadyResumed, ApprovalCancelled, ApprovalStatus  # noqa: E402
from accord.audit import DecisionReceipt  # noqa: E402
from accord.cases import Case  # noqa: E402
from accord.crypto import canonical_bytes  # noqa: E402
from accord.log import get_logger  # noqa: E402
from accord.values import signable  # noqa: E402

__all__ = [
    "OPENAI_AGENTS_VERSION",
    "AccordApprovals",
    "ParkedRun",
    "ResumedRun",
    "arguments_digest",
]

_log = get_logger(__name__)

RequiresPeople = Callable[[str, Mapping[str, Any]], bool]
"""``(tool name, arguments) -> bool``: whether people approve this call (pure, no writes)."""


def arguments_digest(arguments: str | Mapping[str, Any]) -> str:
    """``sha256:<hex>`` of a tool call's arguments as canonical JSON (a JSON string is parsed)."""
    value = json.loads(arguments) if isinstance(arguments, str) else dict(arguments)
    return "sha256:" + hashlib.sha256(canonical_bytes(signable(value))).hexdigest()


def _state_digest(state: Mapping[str, Any]) -> str:
    return "sha256:" + hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()


@dataclass(frozen=True)
class ParkedRun:
    """A run waiting for people: its parked task (resume it by ``task_id``) and, per
    interrupted call id, the approval item people decide."""

    task_id: str
    run_key: str
    items: Mapping[str, str]


@dataclass(frozen=True)
class ResumedRun:
    """A resumed run's result and, per call id, the signed receipt of people's decision."""

    result: RunResult
    receipts: Mapping[str, DecisionReceipt]


@dataclass(frozen=True)
class _Call:
    item_id: str
    task_id: str
    digest: str


@dataclass
class _Binding:
    """The decided calls a resume runs with (what the guardrail may consume)."""

    calls: Mapping[str, _Call]
    consumed: set[str] = field(default_factory=set)


_RESUMING: contextvars.ContextVar[_Binding | None] = contextvars.ContextVar(
    "accord_openai_agents_resuming", default=None
)


class AccordApprovals:
    """People approve an agent's tool calls through Accord, each approval used once."""

    def __init__(
        self,
        accord: Accord,
        *,
        agent_id: str,
        gate: str,
        requires_people: RequiresPeople | None = None,
    ) -> None:
        self.accord = accord
        self.agent_id = agent_id
        self.gate = gate
        self.requires_people: RequiresPeople = requires_people or (lambda _tool, _args: True)

    # --- what a tool is given -------------------------------------------------------------

    def needs_approval(self, tool_name: str) -> Callable[[Any, dict[str, Any], str], Any]:
        """The SDK's ``needs_approval`` callable for ``tool_name``: asks ``requires_people``
        and writes nothing (``park`` queues the interruptions; the SDK may skip a predicate
        and interrupt anyway)."""

        async def needs(_context: Any, arguments: dict[str, Any], _call_id: str) -> bool:
            return bool(self.requires_people(tool_name, arguments))

        return needs

    def guardrail(self) -> ToolInputGuardrail[Any]:
        """The tool input guardrail that consumes Accord's approval of a call at execution."""

        async def check(data: ToolInputGuardrailData) -> ToolGuardrailFunctionOutput:
            tool = data.context
            refusal = await asyncio.to_thread(
                self.consume, tool.tool_name, tool.tool_call_id, tool.tool_arguments
            )
            if refusal is None:
                return ToolGuardrailFunctionOutput.allow()
            _log.info("openai_agents.refused", tool=tool.tool_name, call_id=tool.tool_call_id)
            return ToolGuardrailFunctionOutput.reject_content(refusal)

        return ToolInputGuardrail(guardrail_function=check, name="accord_approval")

    def consume(self, tool_name: str, call_id: str, arguments: str) -> str | None:
        """Use Accord's approval of one call (None: it may run), or say why it may not: not
        approved in Accord, other arguments than people approved, or already used."""
        try:
            parsed = json.loads(arguments)
        except ValueError:
            return "not approved in Accord: the call's arguments are not JSON"
        binding = _RESUMING.get()
        call = None if binding is None else binding.calls.get(call_id)
        if call is None:
            if not self.requires_people(tool_name, parsed):
                return None
            return (
                f"not approved in Accord: {tool_name} needs people's approval; park the run "
                "and resume it with AccordApprovals.resume"
            )
        if arguments_digest(parsed) != call.digest:
            return (
                f"not approved in Accord: the arguments of {tool_name} differ from the ones "
                "people approved"
            )
        try:
            resumption = self.accord.parking.resume_if_decided(call.task_id)
        except (AlreadyResumed, ApprovalCancelled):
            return f"not approved in Accord: the approval of this {tool_name} call was used"
        if resumption is None or resumption.verdict != "chosen":
            return f"not approved in Accord: people did not approve this {tool_name} call"
        if resumption.decision.choice != "approve":
            return f"not approved in Accord: people rejected this {tool_name} call"
        return None

    # --- a run that stopped on interruptions ------------------------------------------------

    async def park(self, result: RunResult, *, run_key: str) -> ParkedRun:
        """Ask people about every interruption of ``result`` and park the run's saved state
        (idempotent: parking the same run again writes nothing)."""
        state = result.to_state()
        interruptions = state.get_interruptions()
        if not interruptions:
            raise AccordError(
                "the run has no interruptions: nothing waits for people",
                code="integrations.nothing_pending",
                field="result",
            )
        snapshot = state.to_json()
        return await asyncio.to_thread(self._park, run_key, interruptions, snapshot)

    def _park(
        self, run_key: str, interruptions: Sequence[Any], snapshot: dict[str, Any]
    ) -> ParkedRun:
        _check_run_key(run_key)
        calls: dict[str, dict[str, str]] = {}
        first: Case | None = None
        for item in interruptions:
            call_id, tool, arguments = str(item.call_id), str(item.name), item.arguments or "{}"
            key = f"openai-agents:{run_key}:{call_id}"
            case = self.accord.request_approval(
                f"{tool}({arguments})"[:480],
                agent_id=self.agent_id,
                proposal={"tool": tool, "arguments": json.loads(arguments)},
                gate=self.gate,
                idempotency_key=key,
            )
            handle = self.accord.park(
                case,
                self.agent_id,
                {"run_key": run_key, "call_id": call_id, "tool": tool},
                idempotency_key=key,
            )
            first = first or case
            calls[call_id] = {
                "item_id": handle.item_id,
                "task_id": handle.task_id,
                "digest": arguments_digest(arguments),
            }
        assert first is not None
        run = self.accord.park(
            first,
            self.agent_id,
            {
                "run_key": run_key,
                "calls": calls,
                "run_state": snapshot,
                "run_state_sha256": _state_digest(snapshot),
            },
            idempotency_key=f"openai-agents:{run_key}",
        )
        items = {call_id: call["item_id"] for call_id, call in calls.items()}
        return ParkedRun(task_id=run.task_id, run_key=run_key, items=items)

    async def resume(
        self,
        task_id: str,
        *,
        agent: Agent[Any],
        context: Any = None,
        run_config: Any = None,
        max_turns: int = 10,
    ) -> ResumedRun | None:
        """Run the parked run on once people decided every call (None while any waits).

        A saved state whose digest does not match is refused
        (``integrations.snapshot_tampered``); approved calls run (the guardrail consumes each
        approval once), others are rejected with the reviewer's reason, written outcome or
        the expiry as the model's message."""
        parked = await asyncio.to_thread(self._decisions, task_id)
        if parked is None:
            return None
        snapshot, calls, messages = parked
        state: RunState[Any, Agent[Any]] = await RunState.from_json(agent, snapshot)
        for interruption in state.get_interruptions():
            call_id = str(interruption.call_id)
            if call_id not in calls:
                raise AccordError(
                    f"the saved run has a call {call_id} people were not asked about",
                    code="integrations.snapshot_tampered",
                    field="run_state",
                )
            message = messages.get(call_id)
            if message is None:
                state.approve(interruption)
            else:
                state.reject(interruption, rejection_message=message)
        with _binding(calls):
            result = await Runner.run(
                agent, state, context=context, run_config=run_config, max_turns=max_turns
            )
        receipts = await asyncio.to_thread(
            lambda: {c: self.accord.receipt(call.item_id) for c, call in calls.items()}
        )
        return ResumedRun(result=result, receipts=receipts)

    @contextlib.contextmanager
    def executing(self, task_id: str) -> Iterator[None]:
        """Within it, the guardrail may consume the approvals of parked run ``task_id``'s calls
        (what ``resume`` does around ``Runner.run``; for a caller that drives the SDK itself)."""
        with _binding(_calls_of(self.accord.parking.get(task_id).context, task_id)):
            yield

    def _decisions(
        self, task_id: str
    ) -> tuple[dict[str, Any], dict[str, _Call], dict[str, str]] | None:
        """The saved state, its calls and each rejected call's message (None: pending)."""
        context = self.accord.parking.get(task_id).context
        decided = _calls_of(context, task_id)
        snapshot = context["run_state"]
        if _state_digest(snapshot) != context.get("run_state_sha256"):
            raise AccordError(
                f"the saved run state of task {task_id} was altered after it was parked",
                code="integrations.snapshot_tampered",
                field="run_state",
            )
        messages: dict[str, str] = {}
        for call_id, call in decided.items():
            item = self.accord.approvals.get(call.item_id)
            if item.status is ApprovalStatus.PENDING:
                return None
            message = _rejection(item.decision, item.status)
            if message is not None:
                messages[call_id] = message
        # the run's own resumption, claimed per run: a retry after a crash is the same resume
        self.accord.parking.resume_if_decided(task_id, claim=f"openai-agents:{context['run_key']}")
        return snapshot, decided, messages

    # --- parallel agents ---------------------------------------------------------------------

    async def settle_outputs(
        self,
        subject: str,
        results: Mapping[str, RunResult],
        *,
        task_type: str = "default",
        idempotency_key: str | None = None,
    ) -> Case:
        """Settle parallel agents' final outputs (agent id → its run's result) in one call."""
        positions = [
            {"agent": agent_id, "output": _plain(result.final_output)}
            for agent_id, result in results.items()
        ]
        return await self.accord.settle_async(
            subject, positions, task_type=task_type, idempotency_key=idempotency_key
        )


@contextlib.contextmanager
def _binding(calls: Mapping[str, _Call]) -> Iterator[None]:
    token = _RESUMING.set(_Binding(calls))
    try:
        yield
    finally:
        _RESUMING.reset(token)


def _calls_of(context: Mapping[str, Any], task_id: str) -> dict[str, _Call]:
    """A parked run's calls, by call id (``integrations.unknown_item`` for another task)."""
    calls = context.get("calls")
    if not isinstance(context.get("run_state"), dict) or not isinstance(calls, dict):
        raise ValidationError(
            f"task {task_id} is not a parked Agents SDK run",
            code="integrations.unknown_item",
            field="task_id",
        )
    return {call_id: _Call(**call) for call_id, call in calls.items()}


def _rejection(decision: Any, status: ApprovalStatus) -> str | None:
    """The message the model reads for a call people did not approve (None: approved)."""
    if status is ApprovalStatus.CANCELLED or decision is None:
        return "not approved: the approval request was cancelled"
    who = decision.decided_by
    if decision.outcome == "expired":
        return "not approved: the approval expired without a decision"
    if decision.outcome == "denied":
        return f"rejected by {who}: {decision.reason}" if decision.reason else f"rejected by {who}"
    if decision.written_outcome is not None:
        return f"{who} decided instead: {decision.written_outcome}"
    if decision.choice != "approve":
        return f"rejected by {who}: {decision.reason}" if decision.reason else f"rejected by {who}"
    return None


def _plain(output: Any) -> Any:
    dump = getattr(output, "model_dump", None)
    return dump(mode="json") if callable(dump) else output


def _check_run_key(run_key: object) -> None:
    if not isinstance(run_key, str) or not run_key.strip() or len(run_key) > 128:
        raise ValidationError(
            "run_key must be a non-empty string of at most 128 characters",
            code="integrations.bad_run_key",
            field="run_key",
            rule="a non-empty string of at most 128 characters",
        )
