"""What every tier service shares: the database, the ledger, the dispute desk, the clock, and
the checks that a dispute is open at the tier a step belongs to."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from accord.clock import Clock
from accord.conflicts import Tier
from accord.crypto import Signer, sign_record
from accord.dcp07.refusal import refused
from accord.dcp07.resolution_record import ResolutionRecord
from accord.disputes.tiers.credentials import acting_agent
from accord.disputes.tiers.dispute_port import DisputeDesk, TierDispute
from accord.disputes.tiers.resolutions import tier_resolution
from accord.disputes.tiers.resolving import Resolver
from accord.ids import IdSource, RandomIds
from accord.ledger import KeyRole, Ledger
from accord.ledger.entry import ChainHead
from accord.ledger.ledger import head_within, registry_within
from accord.store import Database

MAX_TEXT = 20_000
"""Terms, descriptions and reasoning: at most this many characters."""


@dataclass(frozen=True, slots=True)
class TierContext:
    """The ports the tier services are built from: ``ids`` names the records a step makes
    and ``head`` is the ledger head a §6 draft chains to (a prepared step pins both, with the
    clock, so its second run signs the bytes its first run showed)."""

    db: Database
    ledger: Ledger
    desk: DisputeDesk
    clock: Clock
    resolver: Resolver
    ids: IdSource = field(default_factory=RandomIds)
    head: Callable[[Connection], ChainHead] = head_within

    def actor(self, signer: Signer, role: KeyRole) -> str:
        """The agent the signing key belongs to (see :mod:`credentials`)."""
        return acting_agent(self.ledger.key_registry(), signer, role)

    def actor_within(self, conn: Connection, signer: Signer, role: KeyRole) -> str:
        """:meth:`actor` as the step's own transaction sees the key registry (a key revoked
        before the step commits acts for nobody)."""
        return acting_agent(registry_within(conn), signer, role)

    def at_tier(
        self, conn: Connection, dispute_id: str, tiers: tuple[Tier, ...], requirement: str
    ) -> TierDispute:
        """The dispute, refused unless it is still open at one of ``tiers``."""
        dispute = self.desk.load_within(conn, dispute_id)
        if not dispute.active:
            raise refused(
                "R6",  # resolved, withdrawn and abandoned are final: the lifecycle refuses
                "dispute_id",
                f"the dispute is {dispute.status}: no tier acts on it any more",
                code="disputes.not_active",
                dispute_id=dispute_id,
                status=dispute.status,
            )
        if dispute.level not in tiers:
            raise refused(
                requirement,
                "dispute_id",
                f"this step belongs to {' or '.join(t.value for t in tiers)}; the dispute is "
                f"at {dispute.level.value}",
                code="disputes.wrong_tier",
                dispute_id=dispute_id,
                level=dispute.level.value,
            )
        return dispute

    def step(
        self,
        conn: Connection,
        dispute: TierDispute,
        event_type: str,
        actor: str,
        details: Mapping[str, Any],
        *,
        status: str | None = None,
    ) -> None:
        """Record a tier step's R30 event on the dispute; with ``status`` (and the dispute not
        there yet) the step also moves it, e.g. ``open`` → ``negotiating`` (R7)."""
        if status is not None and dispute.status != status:
            self.desk.move_within(
                conn,
                dispute.dispute_id,
                status,
                event_type=event_type,
                actor=actor,
                details=details,
            )
        else:
            self.desk.record_event_within(
                conn, dispute.dispute_id, event_type, actor=actor, details=details
            )

    def resolution_draft(
        self, conn: Connection, *, at: datetime, **fields: Any
    ) -> ResolutionRecord:
        """The tier's unsigned §6 record (:func:`tier_resolution`), named by :attr:`ids` and
        chained to :attr:`head`."""
        return tier_resolution(
            conn, at=at, resolution_id=self.ids.new_id("res", at), head=self.head(conn), **fields
        )

    @staticmethod
    def deadline_of(dispute: TierDispute, requirement: str) -> datetime:
        if dispute.tier_deadline is None:
            raise refused(
                requirement,
                "tier_deadline",
                "the dispute's tier has a deadline (R3)",
                code="disputes.no_deadline",
                dispute_id=dispute.dispute_id,
            )
        return dispute.tier_deadline


def check_text(value: str, field: str, requirement: str) -> str:
    """``value`` if it is 1–20,000 characters of text; else refused naming ``field``."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise refused(
            requirement,
            field,
            f"1 to {MAX_TEXT:,} characters of text",
            code="disputes.bad_text",
        )
    if any(ord(c) < 32 and c not in "\n\t" for c in value):
        raise refused(
            requirement,
            field,
            "printable text (newlines and tabs allowed)",
            code="disputes.bad_text",
        )
    return value


def party_signed(record: Mapping[str, Any], signer: Signer) -> dict[str, Any]:
    """``record`` with the acting party's ``party_signature`` (``DCP-DISPUTE-SIG-v2``)."""
    return {**record, "party_signature": sign_record(record, signer).model_dump()}
