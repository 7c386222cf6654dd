"""A sweeper: every due deadline fired once, in write transactions of ``batch`` rows.

Deadlines are rows, so any sweeper on the same database — in this process or another,
before or after a restart — fires the rows any other armed; on PostgreSQL several sweepers
split the due rows between them and none fires a row twice.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from datetime import datetime

from accord.clock import Clock
from accord.deadlines.claim import FailedDeadline, FiredDeadline, claim_due
from accord.deadlines.handler import Handlers
from accord.errors import ValidationError
from accord.store import Database


def new_sweeper_id() -> str:
    """``sweeper:<pid>:<random>``: names the process that fired a row (``fired_by``)."""
    return f"sweeper:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass
class SweepReport:
    """Every deadline one sweep fired, and those whose handler failed."""

    fired: list[FiredDeadline] = field(default_factory=list)
    failed: list[FailedDeadline] = field(default_factory=list)
    transactions: int = 0


class DeadlineSweep:
    """Fires due deadlines with the handlers registered for their kinds."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        handlers: Handlers,
        *,
        sweeper_id: str | None = None,
    ) -> None:
        self._db = db
        self._clock = clock
        self._handlers = dict(handlers)
        self.sweeper_id = sweeper_id or new_sweeper_id()

    @property
    def kinds(self) -> list[str]:
        """The deadline kinds this sweeper fires (others stay armed)."""
        return sorted(self._handlers)

    def run(self, now: datetime | None = None, batch: int = 100) -> SweepReport:
        """Fire every deadline due at ``now`` (default: the clock's), ``batch`` per transaction,
        until a batch finds nothing left (rows another sweeper holds are its own). A row whose
        handler fails is tried once per run."""
        if batch < 1:
            raise ValidationError(
                "batch must be a positive number of deadlines", field="batch", rule=">= 1"
            )
        now = now or self._clock.now()
        report = SweepReport()
        failed_ids: set[str] = set()
        while True:
            with self._db.write() as conn:
                claimed = claim_due(
                    conn,
                    now=now,
                    limit=batch,
                    sweeper_id=self.sweeper_id,
                    handlers=self._handlers,
                    skip=failed_ids,
                )
            report.transactions += 1
            report.fired.extend(claimed.fired)
            report.failed.extend(claimed.failed)
            failed_ids.update(f.deadline.deadline_id for f in claimed.failed)
            if not claimed.fired and not claimed.failed:
                return report
