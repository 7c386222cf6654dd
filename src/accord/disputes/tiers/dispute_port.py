"""What the tiers need of a persisted dispute, and the port that owns its state.

The dispute store (``disputes/protocol``) owns a dispute's status, its escalation level, its
tier deadline and the ``dispute_resolved`` / ``dispute_escalated`` events; the tiers only read
a :class:`TierDispute` and ask the :class:`DisputeDesk` to resolve or escalate, inside the
transaction that also writes the tier's own rows, so a step and its consequence commit together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from accord.conflicts import Tier
from accord.dcp07.parties import Party
from accord.dcp07.resolution_record import ResolutionRecord

OPEN_STATUSES = frozenset({"open", "negotiating", "escalated", "arbitrating", "appealing"})
"""R6 statuses in which a tier may still act (not resolved, withdrawn or abandoned)."""


class TierDispute(BaseModel):
    """A dispute as the tiers see it: who, where on the ladder, and until when."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dispute_id: str = Field(min_length=1)
    dispute_type: str
    severity: str
    status: str
    level: Tier
    parties: tuple[Party, ...] = Field(min_length=2)
    tier_deadline: AwareDatetime | None
    record_hash: str = Field(pattern=r"^sha256:[0-9a-f]{64}$")

    @property
    def party_ids(self) -> tuple[str, ...]:
        """Complainant first, then respondents."""
        return tuple(p.agent_id for p in self.parties)

    @property
    def active(self) -> bool:
        return self.status in OPEN_STATUSES


class DisputeDesk(Protocol):
    """The dispute store, as the tiers use it (``*_within``: inside the caller's transaction,
    each recording its R30 event with the re-signed §4 dispute record)."""

    def transaction(self) -> AbstractContextManager[Connection]:
        """A write transaction (refused, ``accord.read_only``, on a read-only instance)."""
        ...

    def load_within(self, conn: Connection, dispute_id: str) -> TierDispute:
        """The dispute, or ``NotFound``."""
        ...

    def record_event_within(
        self,
        conn: Connection,
        dispute_id: str,
        event_type: str,
        *,
        actor: str,
        details: Mapping[str, Any],
    ) -> None:
        """Record the R30 event ``event_type`` (status unchanged)."""
        ...

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
        """Move to ``to_status`` (lifecycle-checked, R6) recording ``event_type``; ``tier``
        changes the level and ``rearm`` restarts the tier clock."""
        ...

    def resolve_within(
        self, conn: Connection, dispute_id: str, resolution: ResolutionRecord, *, actor: str
    ) -> None:
        """Mark resolved by the signed ``resolution``: ``dispute_resolved``, deadline cancelled."""
        ...

    def active_between(self, a: str, b: str) -> Sequence[str]:
        """Active dispute ids between agents ``a`` and ``b`` (R11)."""
        ...
