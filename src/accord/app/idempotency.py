"""The facade's idempotency keys: what a keyed settle, gather or park is compared by.

A settle is its subject, positions (each as a validated :class:`Position`, so a mapping and
the equal Position are the same request), task type and session; a gather is its subject,
task type, session and the fan-out's agent names (a replay does not await the fan-out, whose
agents may answer differently the second time); a park is its item, agent and context.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError as PydanticValidationError

from accord.cases import SettleRequest
from accord.clock import Clock, isoformat
from accord.conflicts import Position
from accord.store import IdempotentRequest, check_key, request_digest


def keyed(scope: str, key: str, payload: Any, clock: Clock) -> IdempotentRequest:
    """The keyed request ``payload`` in ``scope`` (the key checked first)."""
    return IdempotentRequest(
        scope=scope,
        key=check_key(key),
        digest=request_digest(payload),
        now=lambda: isoformat(clock.now()),
    )


def settle_payload(request: SettleRequest) -> dict[str, Any]:
    payload = {
        "subject": request.subject,
        "positions": [_position(p) for p in request.positions],
        "task_type": request.task_type,
        "session_id": request.session_id,
    }
    if request.gate is not None:  # a plain settle's digest stays what it was
        payload["gate"] = request.gate
    return payload


def gather_payload(
    subject: str, agents: Sequence[str] | None, task_type: str, session_id: str | None
) -> dict[str, Any]:
    return {
        "subject": subject,
        "agents": None if agents is None else sorted(agents),
        "task_type": task_type,
        "session_id": session_id,
    }


def park_payload(item_id: str, agent_id: str, context: Mapping[str, Any]) -> dict[str, Any]:
    return {"item_id": item_id, "agent_id": agent_id, "context": dict(context)}


def _position(raw: Position | Mapping[str, Any]) -> Any:
    if isinstance(raw, Position):
        return raw.model_dump(mode="json")
    try:  # an invalid position is refused by settle itself; here it is only compared
        return Position.model_validate(raw).model_dump(mode="json")
    except (PydanticValidationError, TypeError, ValueError):
        return raw
