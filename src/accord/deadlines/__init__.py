"""Deadlines are rows, not timers: one mechanism for DCP tiers and approval timeouts.

Arm a deadline (kind, subject, due time) in the transaction that creates its subject; a
sweeper claims due rows and fires each exactly once with the handler registered for its
kind, in the same transaction. Rooms above inject their handlers: ``approvals`` its §12.4
timeouts, ``disputes`` the DCP-07 tier escalation (R4).
"""

from accord.deadlines.claim import Claimed, FailedDeadline, FiredDeadline, claim_due
from accord.deadlines.deadline import (
    MAX_ATTEMPTS,
    Deadline,
    DeadlineState,
    deadline_from_row,
    deadline_row,
)
from accord.deadlines.handler import BatchDeadlineHandler, DeadlineHandler, Handled, Handlers
from accord.deadlines.schedule import (
    arm,
    arm_many,
    armed_for,
    cancel,
    history,
    new_deadline,
    rearm,
)
from accord.deadlines.sweep import DeadlineSweep, SweepReport, new_sweeper_id

__all__ = [
    "MAX_ATTEMPTS",
    "BatchDeadlineHandler",
    "Claimed",
    "Deadline",
    "DeadlineHandler",
    "DeadlineState",
    "DeadlineSweep",
    "FailedDeadline",
    "FiredDeadline",
    "Handled",
    "Handlers",
    "SweepReport",
    "arm",
    "arm_many",
    "armed_for",
    "cancel",
    "claim_due",
    "deadline_from_row",
    "deadline_row",
    "history",
    "new_deadline",
    "new_sweeper_id",
    "rearm",
]
