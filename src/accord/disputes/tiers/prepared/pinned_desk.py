"""The dispute desk a prepared step runs over: the real one, with a check when the step's
transaction opens and one just before it commits.

A tier step opens exactly one ``desk.transaction()``; wrapping it lets the prepared-step
service act inside that very transaction without touching the step's code — refuse a stale
dispute first, then either roll everything back (prepare: the run only shows what would be
signed) or mark the prepared row consumed (complete: compare-and-set, in the step's commit).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from sqlalchemy import Connection

from accord.conflicts import Tier
from accord.dcp07.resolution_record import ResolutionRecord
from accord.disputes.tiers.dispute_port import DisputeDesk, TierDispute

Hook = Callable[[Connection], None]
StopHook = Callable[[Connection, Exception], None]


class PinnedDesk:
    """``desk`` with ``opened`` run first in each transaction and ``finishing`` last;
    ``stopped`` sees the transaction (before it rolls back) when the step raises."""

    def __init__(
        self,
        desk: DisputeDesk,
        *,
        opened: Hook,
        finishing: Hook,
        stopped: StopHook | None = None,
    ) -> None:
        self._desk = desk
        self._opened = opened
        self._finishing = finishing
        self._stopped = stopped

    def transaction(self) -> AbstractContextManager[Connection]:
        return self._transaction()

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        with self._desk.transaction() as conn:
            self._opened(conn)
            try:
                yield conn
            except Exception as stop:
                if self._stopped is not None:
                    self._stopped(conn, stop)
                raise
            self._finishing(conn)

    def load_within(self, conn: Connection, dispute_id: str) -> TierDispute:
        return self._desk.load_within(conn, dispute_id)

    def record_event_within(
        self,
        conn: Connection,
        dispute_id: str,
        event_type: str,
        *,
        actor: str,
        details: Mapping[str, Any],
    ) -> None:
        self._desk.record_event_within(conn, dispute_id, event_type, actor=actor, details=details)

    def move_within(
        self,
        conn: Connection,
        dispute_id: str,
        to_status: str,
        *,
        event_type: str,
        actor: str,
        details: Mapping[str, Any],
        tier: Tier | None = None,
        rearm: bool = False,
    ) -> None:
        self._desk.move_within(
            conn,
            dispute_id,
            to_status,
            event_type=event_type,
            actor=actor,
            details=details,
            tier=tier,
            rearm=rearm,
        )

    def resolve_within(
        self, conn: Connection, dispute_id: str, resolution: ResolutionRecord, *, actor: str
    ) -> None:
        self._desk.resolve_within(conn, dispute_id, resolution, actor=actor)

    def active_between(self, a: str, b: str) -> Sequence[str]:
        return self._desk.active_between(a, b)
