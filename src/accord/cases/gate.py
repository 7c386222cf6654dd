"""A gate: an agent's proposed action that people approve before it runs.

:meth:`accord.Accord.request_approval` settles these two positions with the gate's choice
(:func:`accord.cases.triage.gate_choice`): no tier-1 rung runs, so the proposing agent's
confidence never wins; the human strategy queues the case with ``approve`` and ``reject``.
"""

from __future__ import annotations

import json
from typing import Any

from accord.conflicts import Position
from accord.errors import ValidationError

APPROVE, REJECT = "approve", "reject"
PROPOSAL_KIND = "proposal"


def _shown(proposal: Any) -> str:
    """The proposal as people read it in the item (its evidence keeps it whole)."""
    try:
        text = json.dumps(proposal, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):  # refused by the evidence check, naming the field
        return "see the proposal evidence"
    return text if len(text) <= 1000 else text[:1000] + "…"


def gate_agent(gate: str) -> str:
    """The position that objects on the gate's behalf."""
    return f"policy:{gate}"


def gate_positions(agent_id: str, proposal: Any, gate: str, reason: str) -> list[Position]:
    """The proposing agent's ``approve`` (the proposal as its evidence) and the gate's
    ``reject``; settle checks them further like any positions."""
    if not isinstance(gate, str) or not gate.strip() or len(gate) > 64:
        raise ValidationError(
            "gate must be a non-empty name of at most 64 characters",
            code="settle.bad_request",
            field="gate",
            rule="a non-empty string of at most 64 characters",
        )
    if not isinstance(reason, str):
        raise ValidationError(
            "reason must be a string", code="settle.bad_request", field="reason", rule="a string"
        )
    proposing = {
        "agent": agent_id,
        "output": APPROVE,
        "reasoning": reason or f"{agent_id} proposes: {_shown(proposal)}",
        "evidence": [{"kind": PROPOSAL_KIND, "content": proposal}],
    }
    try:
        proposer = Position.model_validate(proposing)
    except ValidationError as exc:  # named as request_approval's own fields
        where = "agent_id" if str(exc.context.get("field", "")).startswith("agent") else "proposal"
        raise ValidationError(
            f"{where}: {exc.message}", code=exc.code, **{**exc.context, "field": where}
        ) from None
    objector = {
        "agent": gate_agent(gate),
        "output": REJECT,
        "reasoning": f"the {gate} gate: people approve this action before it runs",
    }
    return [proposer, Position.model_validate(objector)]
