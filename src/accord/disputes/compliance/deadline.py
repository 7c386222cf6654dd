"""A required action's deadline as a deadline row, and the handler that fails it (R20, R21)."""

from __future__ import annotations

from datetime import datetime
from typing import Final, Protocol

from sqlalchemy import Connection

from accord.deadlines import Deadline, Handled

#: The deadline kind of a required action (subject: the action id).
DISPUTE_COMPLIANCE: Final = "dispute_compliance"
DEADLINE_ACTOR: Final = "accord:deadline"


class FailOnDeadline(Protocol):
    """The compliance service's side of a passed action deadline."""

    def fail_at_deadline(self, conn: Connection, action_id: str, now: datetime) -> bool:
        """Fail the action if it is still pending (True), else leave it (False)."""
        ...


class ComplianceDeadlineHandler:
    """The ``dispute_compliance`` handler: a still-pending action has missed its deadline."""

    def __init__(self, compliance: FailOnDeadline) -> None:
        self._compliance = compliance

    def __call__(self, conn: Connection, deadline: Deadline, now: datetime) -> Handled:
        failed = self._compliance.fail_at_deadline(conn, deadline.subject_id, now)
        return Handled(outcome="failed" if failed else "stale")
