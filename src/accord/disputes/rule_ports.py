"""What the compliance and objection rules need from the DCP-07 dispute store (a port).

``accord.disputes.Disputes`` (``Accord.disputes``) provides it: each hook works in
the caller's write transaction, so a rule's rows, its signed dispute events and the dispute's
own rows commit together or not at all. Compliance and objections never write a dispute's
rows themselves: they call these hooks, and the store's recorder (the lifecycle's one path)
signs and chains every event.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Any, Protocol

from sqlalchemy import Connection

from accord.dcp07.chain import ChainLink
from accord.dcp07.dispute_record import DisputeRecord
from accord.dcp07.resolution_record import ResolutionRecord


class DisputeView(Protocol):
    """A stored dispute as the store returns it."""

    @property
    def record(self) -> DisputeRecord: ...

    @property
    def resolution(self) -> ResolutionRecord | None: ...

    @property
    def ledger_seqs(self) -> tuple[int, ...]: ...


class DisputeHooks(Protocol):
    """The dispute store's hooks, each inside the caller's transaction ``conn``."""

    def transaction(self) -> AbstractContextManager[Connection]:
        """A write transaction (refused when the store was opened read-only)."""
        ...

    def show_within(self, conn: Connection, dispute_id: str) -> DisputeView:
        """The dispute as ``conn`` sees it (``disputes.not_found``)."""
        ...

    def chain_link_within(self, conn: Connection) -> ChainLink:
        """The ``prev_hash`` pair of a record appended next in ``conn``."""
        ...

    def record_event_within(
        self,
        conn: Connection,
        dispute_id: str,
        event_type: str,
        *,
        actor: str,
        details: Mapping[str, Any] | None = None,
    ) -> DisputeView:
        """Record the R30 event ``event_type`` on the dispute, its status unchanged; the new
        event's ledger entry is the last of ``ledger_seqs``."""
        ...

    def open_within(self, conn: Connection, filing: Mapping[str, Any]) -> DisputeView:
        """Open a dispute from ``filing`` (the ``Disputes.open`` fields)."""
        ...

    def move_within(
        self,
        conn: Connection,
        dispute_id: str,
        to_status: str,
        *,
        event_type: str,
        actor: str,
        details: Mapping[str, Any] | None = None,
        tier: str | None = None,
        rearm: bool = False,
    ) -> DisputeView:
        """Move the dispute through the lifecycle, recording ``event_type``."""
        ...
