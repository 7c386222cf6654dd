"""The tier deadline's port over stored disputes (R4, R6, R9)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection

from accord.disputes.deadline_rules import DeadlineStep
from accord.disputes.protocol.steps import DisputeSteps
from accord.disputes.tier_deadlines import DisputeAtDeadline


class DisputeDeadlines:
    """The :class:`~accord.disputes.tier_deadlines.EscalateOnDeadline` port over stored
    disputes: the sweeper's ``dispute_tier`` handler reads a dispute and applies R4/R6 here,
    in the sweeper's transaction."""

    def __init__(self, steps: DisputeSteps) -> None:
        self._steps = steps

    def dispute_at_deadline(self, conn: Connection, dispute_id: str) -> DisputeAtDeadline | None:
        return self._steps.at_deadline(conn, dispute_id)

    def apply_deadline(
        self, conn: Connection, dispute_id: str, step: DeadlineStep, now: datetime
    ) -> None:
        self._steps.apply_deadline(conn, dispute_id, step, now)
