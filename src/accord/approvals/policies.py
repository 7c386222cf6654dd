"""§12.4 approval timeout policies: what happens when nobody decides in time (pure).

Four kinds, told apart by ``kind``:

* ``wait`` — :class:`WaitForever`: no deadline; the item waits for a person.
* ``deny`` — :class:`DenyAfter`: denied automatically after ``timeout_minutes``.
* ``tiered`` — :class:`Tiered`: a timeout and an action per risk level; risks without a tier wait.
* ``escalation_chain`` — :class:`EscalationChain`: offered to each step's role in turn, each for
  its own timeout; after the last step ``on_chain_exhausted`` applies.

An automatic approve or deny is never a human decision: the queue records it as ``expired``
with the applied action as the choice.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Risk = Literal["low", "medium", "high", "critical"]
OnTimeout = Literal["approve", "deny", "wait"]
DeadlineAction = Literal["approve", "deny", "wait", "escalate"]

Minutes = Annotated[int, Field(strict=True, gt=0, le=525_600)]  # at most a year
RoleName = Annotated[str, Field(min_length=1, max_length=128)]


class _Policy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class WaitForever(_Policy):
    """No deadline: the item stays pending until a person decides it."""

    kind: Literal["wait"] = "wait"


class DenyAfter(_Policy):
    """Deny automatically once ``timeout_minutes`` pass without a decision."""

    kind: Literal["deny"] = "deny"
    timeout_minutes: Minutes


class TierRule(_Policy):
    """One risk level's timeout and what to do when it passes (``wait`` takes no timeout)."""

    timeout_minutes: Minutes | None = None
    on_timeout: OnTimeout

    @model_validator(mode="after")
    def _timeout_matches_action(self) -> TierRule:
        if self.on_timeout == "wait" and self.timeout_minutes is not None:
            raise ValueError("on_timeout 'wait' has no deadline: drop timeout_minutes")
        if self.on_timeout != "wait" and self.timeout_minutes is None:
            raise ValueError(f"on_timeout {self.on_timeout!r} needs timeout_minutes")
        return self


class Tiered(_Policy):
    """A timeout and an action chosen by the item's risk; risks not listed wait forever."""

    kind: Literal["tiered"] = "tiered"
    tiers: dict[Risk, TierRule] = Field(min_length=1)


class EscalationStep(_Policy):
    """One rung of an escalation chain: who is offered the item, and for how long."""

    role: RoleName
    timeout_minutes: Minutes

    @model_validator(mode="before")
    @classmethod
    def _accept_pairs(cls, data: object) -> object:
        if isinstance(data, list | tuple) and len(data) == 2:
            return {"role": data[0], "timeout_minutes": data[1]}
        return data


class EscalationChain(_Policy):
    """Offer the item to each step's role in turn; after the last step apply the fallback."""

    kind: Literal["escalation_chain"] = "escalation_chain"
    steps: tuple[EscalationStep, ...] = Field(min_length=1)
    on_chain_exhausted: OnTimeout


TimeoutPolicy = Annotated[
    WaitForever | DenyAfter | Tiered | EscalationChain, Field(discriminator="kind")
]


def next_deadline(
    policy: TimeoutPolicy, risk: Risk, step: int, from_time: datetime
) -> datetime | None:
    """When step ``step`` (offered at ``from_time``) times out, or None if it never does."""
    minutes = _timeout_minutes(policy, risk, step)
    return None if minutes is None else from_time + timedelta(minutes=minutes)


def _timeout_minutes(policy: TimeoutPolicy, risk: Risk, step: int) -> int | None:
    match policy:
        case WaitForever():
            return None
        case DenyAfter():
            return policy.timeout_minutes
        case Tiered():
            rule = policy.tiers.get(risk)
            return None if rule is None else rule.timeout_minutes
        case EscalationChain():
            return policy.steps[step].timeout_minutes if 0 <= step < len(policy.steps) else None


def on_deadline(policy: TimeoutPolicy, risk: Risk, step: int) -> DeadlineAction:
    """What the sweeper does when step ``step``'s deadline passes."""
    match policy:
        case WaitForever():
            return "wait"
        case DenyAfter():
            return "deny"
        case Tiered():
            rule = policy.tiers.get(risk)
            return "wait" if rule is None else rule.on_timeout
        case EscalationChain():
            return "escalate" if step < len(policy.steps) - 1 else policy.on_chain_exhausted


def role_at_step(policy: TimeoutPolicy, step: int) -> str | None:
    """The role an item is offered to at ``step`` (None: anyone who may decide approvals)."""
    if isinstance(policy, EscalationChain):
        return policy.steps[min(step, len(policy.steps) - 1)].role
    return None
