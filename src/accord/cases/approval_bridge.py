"""Where the approval queue meets cases and the ledger, inside the queue's own transaction.

Every approval event is signed into the ledger; a decision or expiry on a case's item also
finishes the case (settled on the chosen answer or the person's written outcome, or
abandoned), signs that outcome and cancels the case's tier deadline.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from accord.cases.case import SettleStatus
from accord.cases.deadlines import cancel_case_deadline
from accord.cases.human_decision import fold_human_decision
from accord.cases.records import ByPerson, CaseAbandoned, dispute_resolved
from accord.cases.store import CaseStore
from accord.errors import NotFound
from accord.ledger import Ledger

Event = tuple[str, dict[str, Any]]


class ApprovalBridge:
    """The ``on_event`` hook of the approval queue.

    The case is finished at the instant the queue signed in the approval event
    (``decided_at``): the case row and its signed outcome carry that one clock read. ``now``
    is read only for an event that names no instant."""

    def __init__(
        self, ledger: Ledger, store: CaseStore, now: Callable[[], datetime] | None = None
    ) -> None:
        self.ledger = ledger
        self.store = store
        self.now = now

    def __call__(self, conn: Connection, events: list[Event]) -> None:
        follow_up: list[Event] = []
        for kind, record in events:
            if kind in ("approval_decided", "approval_expired"):
                follow_up += self._finish_case(conn, record)
        self.ledger.append_within(conn, [*events, *follow_up])

    def _decided_at(self, record: dict[str, Any]) -> datetime:
        signed = record.get("decided_at")
        if isinstance(signed, str):
            return datetime.fromisoformat(signed)
        if self.now is None:
            raise ValueError(f"approval event for item {record.get('item_id')} names no decided_at")
        return self.now()

    def _finish_case(self, conn: Connection, record: dict[str, Any]) -> list[Event]:
        try:
            case = self.store.get_within(conn, str(record["case_id"]))
        except NotFound:
            return []  # an item not raised by settle (e.g. created directly through the API)
        if case.status is not SettleStatus.ESCALATED or case.approval_item_id != record["item_id"]:
            return []
        decided_by = str(record["decided_by"])
        decided_at = self._decided_at(record)
        finished = fold_human_decision(
            case,
            outcome=str(record["outcome"]),
            choice=record.get("choice"),
            written_outcome=record.get("written_outcome"),
            decided_by=decided_by,
            reason=str(record.get("reason") or ""),
            decided_at=decided_at,
        )
        self.store.update(conn, finished)
        cancel_case_deadline(conn, finished.case_id, decided_at)  # decided: no tier deadline
        if finished.status is SettleStatus.SETTLED:
            how = ByPerson(decided_by=decided_by, approval_item_id=str(record["item_id"]))
            return [dispute_resolved(finished, how).event()]
        return [
            CaseAbandoned.of(
                finished, outcome=str(record["outcome"]), decided_by=decided_by
            ).event()
        ]
