"""The :class:`DisputeDesk` over the persisted dispute service (``disputes/protocol``): the
tiers read a stored dispute and record their steps, moves and resolutions through the
service's ``*_within`` hooks, so each step re-signs the §4 record and writes its R30 event in
the tier's own transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection

from accord.conflicts import Tier
from accord.crypto.hashing import content_hash
from accord.dcp07.dispute_record import DisputeRecord
from accord.dcp07.documents import record_document
from accord.dcp07.resolution_record import ResolutionRecord
from accord.disputes.tiers.dispute_port import TierDispute


class _Shown(Protocol):
    @property
    def record(self) -> DisputeRecord: ...


class DisputeHooks(Protocol):
    """The calls the desk makes on :class:`~accord.disputes.Disputes`, which builds
    the desk over itself (a port, so that this room does not import the service back)."""

    def transaction(self) -> AbstractContextManager[Connection]: ...

    def show_within(self, conn: Connection, dispute_id: str) -> _Shown: ...

    def record_event_within(
        self,
        conn: Connection,
        dispute_id: str,
        event_type: str,
        *,
        actor: str,
        details: Mapping[str, Any] | None = None,
    ) -> object: ...

    def move_within(
        self,
        conn: Connection,
        dispute_id: str,
        to_status: str,
        *,
        event_type: str,
        actor: str,
        details: Mapping[str, Any] | None = None,
        tier: Tier | None = None,
        rearm: bool = False,
    ) -> object: ...

    def resolve_within(
        self, conn: Connection, dispute_id: str, resolution: ResolutionRecord, *, actor: str
    ) -> object: ...

    def active_between(self, a: str, b: str) -> Sequence[str]: ...


class StoredDisputeDesk:
    """The tiers' view of :class:`~accord.disputes.Disputes`."""

    def __init__(self, disputes: DisputeHooks) -> None:
        self._disputes = disputes

    def transaction(self) -> AbstractContextManager[Connection]:
        return self._disputes.transaction()

    def load_within(self, conn: Connection, dispute_id: str) -> TierDispute:
        record = self._disputes.show_within(conn, dispute_id).record
        due = record.escalation_deadline
        return TierDispute(
            dispute_id=record.dispute_id,
            dispute_type=record.dispute_type.value,
            severity=record.severity.value,
            status=record.status.value,
            level=Tier(record.current_escalation_level.value),
            parties=record.parties,
            tier_deadline=None if due is None else datetime.fromisoformat(due),
            record_hash=content_hash(record_document(record)),
        )

    def record_event_within(
        self,
        conn: Connection,
        dispute_id: str,
        event_type: str,
        *,
        actor: str,
        details: Mapping[str, Any],
    ) -> None:
        self._disputes.record_event_within(
            conn, dispute_id, event_type, actor=actor, details=details
        )

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
        self._disputes.move_within(
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
        self._disputes.resolve_within(conn, dispute_id, resolution, actor=actor)

    def active_between(self, a: str, b: str) -> Sequence[str]:
        """Active disputes that both ``a`` and ``b`` are parties to (R11)."""
        return self._disputes.active_between(a, b)
