"""The approval queue's §12.4 timeouts as deadline rows: their kind and their handler.

An item with a deadline arms an ``approval_timeout`` row when it is queued; a decision or a
withdrawal cancels it; when it passes, the sweeper calls this handler, which applies the
item's policy (expire, escalate to the next role, or wait without a deadline). An
escalation re-arms the row for the next step in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import Connection

from accord.approvals.events import Event
from accord.approvals.item import ApprovalItem
from accord.deadlines import Deadline, Handled

#: The deadline kind of an approval item's timeout.
APPROVAL_TIMEOUT = "approval_timeout"

TimedOut = tuple[ApprovalItem, Event]
"""An item as its passed deadline changed it, and the event recording the change."""
ApplyTimeout = Callable[[Connection, Deadline, datetime], TimedOut | None]
"""Applies the policy to the item a deadline names; None when the item has moved on."""


class ApprovalTimeoutHandler:
    """The ``approval_timeout`` deadline handler (built by ``ApprovalQueue``); its
    ``Handled.value`` is the :data:`TimedOut` pair (None for a stale deadline)."""

    def __init__(self, apply: ApplyTimeout) -> None:
        self._apply = apply

    def __call__(self, conn: Connection, deadline: Deadline, now: datetime) -> Handled:
        applied = self._apply(conn, deadline, now)
        if applied is None:
            return Handled(outcome="stale")
        after, _ = applied
        return Handled(
            outcome=timeout_outcome(after),
            next_due=after.deadline,
            next_tier=step_tier(after.escalation_step) if after.deadline else None,
            value=applied,
        )


def timeout_outcome(item: ApprovalItem) -> str:
    """``expired``, ``escalated`` (offered to the next role), or ``waiting`` (no deadline)."""
    if not item.is_pending:
        return "expired"
    return "waiting" if item.deadline is None else "escalated"


def step_tier(step: int) -> str:
    """The ``tier`` an approval deadline row carries: the item's escalation step."""
    return str(step)
