"""Where the approval queue meets cases and the ledger, inside the queue's own transaction.

Every approval event is signed into the ledger; a decision or expiry on a case's item also
finishes the case (settled on the chosen answer, or abandoned) and signs that outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from accord.clock import isoformat
from accord.disputes.case import SettleStatus
from accord.disputes.case_store import CaseStore
from accord.disputes.human_decision import fold_human_decision
from accord.disputes.ledger_records import dissent_entries, log_fields
from accord.disputes.signable import answer_hash
from accord.errors import NotFound
from accord.ledger import Ledger
from accord.values import signable

Event = tuple[str, dict[str, Any]]


class ApprovalBridge:
    """The ``on_event`` hook of the approval queue."""

    def __init__(self, ledger: Ledger, store: CaseStore, now: Callable[[], datetime]) -> None:
        self.ledger = ledger
        self.store = store
        self.now = now

    def __call__(self, conn: Connection, events: list[Event]) -> None:
        follow_up: list[Event] = []
        for kind, record in events:
            if kind in ("approval_decided", "approval_expired"):
                follow_up += self._finish_case(conn, record)
        self.ledger.append_within(conn, [*events, *follow_up])

    def _finish_case(self, conn: Connection, record: dict[str, Any]) -> list[Event]:
        try:
            case = self.store.get_within(conn, str(record["case_id"]))
        except NotFound:
            return []  # an item not raised by settle (e.g. created directly through the API)
        if case.status is not SettleStatus.ESCALATED or case.approval_item_id != record["item_id"]:
            return []
        now = self.now()  # one instant: the case and its signed record must agree on it
        finished = fold_human_decision(
            case,
            outcome=str(record["outcome"]),
            choice=record.get("choice"),
            decided_by=str(record["decided_by"]),
            reason=str(record.get("reason") or ""),
            decided_at=now,
        )
        self.store.update(conn, finished)
        if finished.status is SettleStatus.SETTLED and finished.decision is not None:
            decision = finished.decision
            return [
                (
                    "dispute_resolved",
                    {
                        "dispute_id": finished.case_id,
                        "resolution_id": decision.resolution_id,
                        "resolution_level": finished.tier.value,
                        "resolution_type": "human_appeal"
                        if decision.rung == "human"
                        else "timeout",
                        "rung": decision.rung,
                        "winner": decision.winner,
                        "winners": list(decision.winners),
                        "answer": signable(decision.answer),
                        "answer_hash": answer_hash(decision.answer),
                        "decided_by": record["decided_by"],
                        "approval_item_id": record["item_id"],
                        "dissent": dissent_entries(finished),
                        "decided_at": isoformat(now),
                        "log": log_fields(finished),
                    },
                )
            ]
        return [
            (
                "dispute_abandoned",
                {
                    "dispute_id": finished.case_id,
                    "approval_item_id": record["item_id"],
                    "outcome": record["outcome"],
                    "decided_by": record["decided_by"],
                    "reason": finished.escalation.reason if finished.escalation else "",
                    "decided_at": isoformat(now),
                    "log": log_fields(finished),
                },
            )
        ]
