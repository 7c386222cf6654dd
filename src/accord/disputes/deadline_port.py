"""The tier deadline's port over stored disputes (R4, R6, R9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from sqlalchemy import Connection

from accord.dcp07.deadlines import DeadlineStep
from accord.deadlines.dispute_tier import DisputeAtDeadline
from accord.disputes.rows import DisputeRow
from accord.disputes.steps import DisputeSteps


class DisputeDeadlines:
    """The :class:`~accord.deadlines.dispute_tier.EscalateManyOnDeadline` port over stored
    disputes: the sweeper's ``dispute_tier`` handler reads a batch's disputes in one query and
    applies R4/R6 to them here, each read once, in the sweeper's transaction."""

    def __init__(self, steps: DisputeSteps) -> None:
        self._steps = steps

    def dispute_at_deadline(self, conn: Connection, dispute_id: str) -> DisputeAtDeadline | None:
        return self._steps.at_deadline(conn, dispute_id)

    def apply_deadline(
        self, conn: Connection, dispute_id: str, step: DeadlineStep, now: datetime
    ) -> None:
        self._steps.apply_deadline(conn, dispute_id, step, now)

    def disputes_at_deadline(
        self, conn: Connection, dispute_ids: Sequence[str]
    ) -> Mapping[str, DisputeAtDeadline]:
        return self._steps.at_deadlines(conn, dispute_ids)

    def apply_deadlines(
        self, conn: Connection, steps: Sequence[tuple[DisputeAtDeadline, DeadlineStep]],
        now: datetime,
    ) -> None:  # fmt: skip
        self._steps.apply_deadlines(
            conn, [(self._row(conn, dispute), step) for dispute, step in steps], now
        )

    def _row(self, conn: Connection, dispute: DisputeAtDeadline) -> DisputeRow:
        """The row ``disputes_at_deadline`` read (read again if it was made elsewhere)."""
        row = dispute.stored
        if isinstance(row, DisputeRow) and row.record.dispute_id == dispute.dispute_id:
            return row
        return self._steps.stored(conn, dispute.dispute_id)
