"""The deadline that will actually act on a waiting item, and what happens then (pure).

A pending item can be ended by two deadlines: its own §12.4 timeout (``item.deadline``) and the
tier deadline of the case it belongs to (a ``case_tier`` row, armed when the item has no timeout
of its own). Whichever is sooner acts first; :func:`acting_deadline` is the one place that rule
lives, so the queue, the case page, the API, the parked task and the CLI all show the same time.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from accord.approvals.item import ApprovalItem
from accord.approvals.policies import Risk, TimeoutPolicy, on_deadline

DeadlineSource = Literal["item", "case_tier"]
CaseTierAction = Literal["escalate", "abandon"]
"""What a case's tier deadline does: climb to human appeal (the item stays) or end the case."""
ActingAction = Literal["approve", "deny", "escalate", "wait", "abandon"]

_ITEM_WORDS: dict[str, str] = {
    "approve": "the §12.4 policy approves the item automatically (recorded as expired)",
    "deny": "the §12.4 policy denies the item automatically (recorded as expired)",
    "escalate": "the §12.4 policy offers the item to the next role in its escalation chain",
    "wait": "the §12.4 policy keeps the item waiting for a person",
}
CASE_TIER_WORDS: dict[CaseTierAction, str] = {
    "abandon": "the case's tier deadline withdraws the item (cancelled) and the case expires",
    "escalate": "the case's tier deadline escalates the case to human appeal",
}

_BRIEF: dict[tuple[DeadlineSource, ActingAction], str] = {
    ("item", "approve"): "auto-approved",
    ("item", "deny"): "auto-denied",
    ("item", "escalate"): "next role",
    ("item", "wait"): "keeps waiting",
    ("case_tier", "abandon"): "case expires",
    ("case_tier", "escalate"): "to human appeal",
}


class ActingDeadline(BaseModel):
    """When a waiting item's next deadline acts (``due_at``), whose deadline it is
    (``source``), what it does (``action``) and that in words (``then``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    due_at: AwareDatetime = Field(description="When the deadline acts (UTC).")
    source: DeadlineSource = Field(
        description="Whose deadline: 'item' (the item's own §12.4 timeout) or 'case_tier' (the "
        "case's DCP tier deadline, R3)."
    )
    action: ActingAction = Field(
        description="What it does: approve, deny, escalate (next role) or wait under the §12.4 "
        "policy; for a case tier deadline, escalate (to human appeal) or abandon (the item is "
        "cancelled and the case expires)."
    )
    then: str = Field(description="What happens at the deadline, in words.")

    @property
    def in_brief(self) -> str:
        """What happens then, in two or three words (for a queue's cell)."""
        return _BRIEF[self.source, self.action]


def acting_deadline(
    item: ApprovalItem,
    case_due: datetime | None = None,
    case_action: CaseTierAction = "abandon",
) -> ActingDeadline | None:
    """The deadline that will act on ``item``: its own or its case tier's (``case_due``, doing
    ``case_action``), whichever is sooner (the item's own on a tie); None when the item is no
    longer pending or neither deadline exists."""
    if not item.is_pending:
        return None
    return acting_deadline_of(
        item.deadline, item.policy, item.risk, item.escalation_step, case_due, case_action
    )


def acting_deadline_of(
    own: datetime | None,
    policy: TimeoutPolicy,
    risk: Risk,
    step: int,
    case_due: datetime | None = None,
    case_action: CaseTierAction = "abandon",
) -> ActingDeadline | None:
    """:func:`acting_deadline` over a pending item's parts (its own deadline, §12.4 policy,
    risk and escalation step), for a reader that has them without the whole item."""
    if own is not None and (case_due is None or own <= case_due):
        action = on_deadline(policy, risk, step)
        return ActingDeadline(due_at=own, source="item", action=action, then=_ITEM_WORDS[action])
    if case_due is None:
        return None
    return ActingDeadline(
        due_at=case_due, source="case_tier", action=case_action, then=CASE_TIER_WORDS[case_action]
    )
