"""A collecting case's deadline as a deadline row, and the handler that closes it.

The row is armed when the case opens and cancelled when the last expected position settles
it. When the deadline passes first, :class:`CollectingDeadlineHandler` closes the case in
the sweeper's transaction: with at least two positions in it settles on what arrived (the
missing parties are left out, and named by the case's ``closed_reason`` and its ``missing``
list); with fewer — nothing to weigh one answer against — it is abandoned, and so is a case
whose positions settle refuses (``positions_refused``; submission checks each new position
against those in, so this is a last resort — the deadline must not fail forever).
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from sqlalchemy import Connection

from accord.cases.case import Case
from accord.cases.collecting_case import CollectingCase
from accord.cases.settle import MIN_POSITIONS
from accord.cases.statuses import CollectingStatus
from accord.deadlines import Deadline, Handled
from accord.errors import AccordError

#: The deadline kind of a collecting case.
COLLECTING_DEADLINE = "collecting_case"
#: Why a case whose positions settle refuses was abandoned.
POSITIONS_REFUSED = "positions_refused"


class Unsettleable(AccordError):
    """Settle refuses a collecting case's positions (raised before anything is written)."""

    code = "collecting.unsettleable"


class CloseOnDeadline(Protocol):
    """The collecting service's side of a passed deadline (the port the handler calls)."""

    def collecting_within(self, conn: Connection, collecting_id: str) -> CollectingCase | None:
        """The collecting case as it stands (None if there is none)."""
        ...

    def settle_within(self, conn: Connection, collecting: CollectingCase, now: datetime) -> Case:
        """Settle it on the positions that arrived, in transaction ``conn``; ``Unsettleable``,
        having written nothing, when settle refuses them."""
        ...

    def abandon_within(
        self, conn: Connection, collecting: CollectingCase, now: datetime, reason: str = ...
    ) -> CollectingCase:
        """Abandon it (too few positions, or ``reason``), in transaction ``conn``."""
        ...


class CollectingDeadlineHandler:
    """The ``collecting_case`` deadline handler: settle on what arrived, or abandon."""

    def __init__(self, service: CloseOnDeadline) -> None:
        self._service = service

    def __call__(self, conn: Connection, deadline: Deadline, now: datetime) -> Handled:
        collecting = self._service.collecting_within(conn, deadline.subject_id)
        if collecting is None or collecting.status is not CollectingStatus.COLLECTING:
            return Handled(outcome="stale")
        if len(collecting.submitted) >= MIN_POSITIONS:
            try:
                case = self._service.settle_within(conn, collecting, now)
            except Unsettleable:
                refused = self._service.abandon_within(conn, collecting, now, POSITIONS_REFUSED)
                return Handled(outcome="abandoned", value=refused)
            return Handled(outcome="settled", value=case)
        abandoned = self._service.abandon_within(conn, collecting, now)
        return Handled(outcome="abandoned", value=abandoned)
