"""A small world for the tier tests: two parties with agent keys, a pool of arbitrators with
arbitrator keys, the parties' principals as reviewers, and a dispute desk.

``MemoryDesk`` is a test double of the :class:`DisputeDesk` port: disputes live in a dict,
changes made inside a transaction become visible to it and are kept only when the
transaction commits, and every event is appended to the real ledger in that transaction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection

from accord.approvals import Principal, Reviewer
from accord.clock import FrozenClock
from accord.conflicts import Tier
from accord.crypto import Ed25519Signer
from accord.dcp07.negotiation import commitment
from accord.dcp07.parties import Party
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.statuses import CaseStatus, check_transition
from accord.disputes.tiers import ArbitratorSettings, DisputeTiers, TierDispute
from accord.disputes.tiers.resolving import BundleRegistry
from accord.errors import NotFound
from accord.ledger import Ledger
from accord.org.interaction_store import InteractionLog
from accord.store import Database

DISPUTE = "disp:0197aaaa-0000-7000-8000-000000000001"
BILLING = Party(agent_id="agent:billing", principal_id="human:ana", organization_id="acme")
AUDIT = Party(agent_id="agent:audit", principal_id="human:bo", organization_id="globex")
POOL_IDS = tuple(f"arb:{i:02d}" for i in range(6))
_PENDING = "memory_desk_pending"


def seed(name: str) -> Ed25519Signer:
    return Ed25519Signer.from_seed(hashlib.sha256(name.encode()).digest())


def pool_settings(**overrides: Any) -> ArbitratorSettings:
    members = [
        {
            "agent_id": agent_id,
            "principal_id": f"human:{agent_id[4:]}",
            "organization_id": ("acme", "initech")[i % 2],
            "vitality": 900,
        }
        for i, agent_id in enumerate(POOL_IDS)
    ]
    members += overrides.pop("extra_members", [])
    return ArbitratorSettings.model_validate({"members": members, **overrides})


class MemoryDesk:
    """The dispute store as a dict (see the module docstring)."""

    def __init__(self, db: Database, ledger: Ledger, clock: FrozenClock) -> None:
        self._db = db
        self._ledger = ledger
        self._clock = clock
        self.disputes: dict[str, TierDispute] = {}
        self.resolutions: dict[str, ResolutionRecord] = {}
        self.events: list[tuple[str, str]] = []

    def add(self, dispute: TierDispute) -> None:
        self.disputes[dispute.dispute_id] = dispute

    def _pending(self, conn: Connection) -> dict[str, Any]:
        pending: dict[Any, Any] | None = conn.info.get(_PENDING)
        if pending is None or pending.get("tx") is not conn.get_transaction():
            pending = {"tx": conn.get_transaction()}
            conn.info[_PENDING] = pending
            self._db.after_commit(conn, lambda: self._apply(pending))
        return pending

    def _apply(self, pending: dict[Any, Any]) -> None:
        for key, value in pending.items():
            if key == "tx":
                continue
            kind, dispute_id = key
            if kind == "dispute":
                self.disputes[dispute_id] = value
            elif kind == "resolution":
                self.resolutions[dispute_id] = value
            else:
                self.events.extend(value)

    def transaction(self) -> AbstractContextManager[Connection]:
        return self._db.write()

    def load_within(self, conn: Connection, dispute_id: str) -> TierDispute:
        pending = conn.info.get(_PENDING) or {}
        if pending.get("tx") is not conn.get_transaction():
            pending = {}
        found = pending.get(("dispute", dispute_id)) or self.disputes.get(dispute_id)
        if found is None:
            raise NotFound(f"no dispute {dispute_id}", code="disputes.not_found")
        return found

    def _event(self, conn: Connection, dispute_id: str, event: str, details: Any) -> None:
        self._ledger.append_within(conn, [(event, {"dispute_id": dispute_id, **details})])
        self._pending(conn).setdefault(("events", dispute_id), []).append((dispute_id, event))

    def record_event_within(
        self,
        conn: Connection,
        dispute_id: str,
        event_type: str,
        *,
        actor: str,
        details: Mapping[str, Any],
    ) -> None:
        self.load_within(conn, dispute_id)
        self._event(conn, dispute_id, event_type, {**details, "actor": actor})

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
        current = self.load_within(conn, dispute_id)
        check_transition(CaseStatus(current.status), CaseStatus(to_status), dispute_id)
        update: dict[str, Any] = {"status": to_status}
        if tier is not None:
            update["level"] = tier
        if rearm:
            update["tier_deadline"] = self._clock.now() + timedelta(hours=1)
        self._pending(conn)[("dispute", dispute_id)] = current.model_copy(update=update)
        self._event(conn, dispute_id, event_type, {**details, "actor": actor})

    def resolve_within(
        self, conn: Connection, dispute_id: str, resolution: ResolutionRecord, *, actor: str
    ) -> None:
        assert resolution.signatures, "the dispute store refuses an unsigned resolution (R44)"
        current = self.load_within(conn, dispute_id)
        check_transition(CaseStatus(current.status), CaseStatus.RESOLVED, dispute_id)
        pending = self._pending(conn)
        pending[("dispute", dispute_id)] = current.model_copy(
            update={"status": "resolved", "tier_deadline": None}
        )
        pending[("resolution", dispute_id)] = resolution
        self._event(conn, dispute_id, "dispute_resolved", {"resolution": resolution.resolution_id})

    def active_between(self, a: str, b: str) -> Sequence[str]:
        return sorted(
            d.dispute_id for d in self.disputes.values() if d.active and {a, b} <= set(d.party_ids)
        )


class World:
    """Everything a tier test needs, built on one database."""

    def __init__(
        self,
        db: Database,
        ledger: Ledger,
        clock: FrozenClock,
        *,
        arbitrators: ArbitratorSettings | None = None,
        precedents: BundleRegistry | None = None,
    ) -> None:
        self.db = db
        self.ledger = ledger
        self.clock = clock
        self.desk = MemoryDesk(db, ledger, clock)
        self.interactions = InteractionLog(db)
        self.tiers = DisputeTiers(
            db=db,
            ledger=ledger,
            desk=self.desk,
            clock=clock,
            interactions=self.interactions,
            arbitrators=arbitrators if arbitrators is not None else pool_settings(),
            precedents=precedents,
        )
        self.keys: dict[str, Ed25519Signer] = {}
        for party in (BILLING, AUDIT):
            self.keys[party.agent_id] = self._register(party.agent_id, "agent")
        for agent_id in POOL_IDS:
            self.keys[agent_id] = self._register(agent_id, "arbitrator")
        self.reviewer_keys = {p: self._register(p, "reviewer") for p in ("human:ana", "human:bo")}

    def _register(self, name: str, role: Any) -> Ed25519Signer:
        signer = seed(f"{role}:{name}")
        self.ledger.register_key(signer.public_key, role, name)
        return signer

    def reviewer(self, principal_id: str) -> Reviewer:
        return Reviewer(Principal(principal_id=principal_id), self.reviewer_keys[principal_id])

    def open(
        self,
        *,
        level: Tier = Tier.DIRECT_NEGOTIATION,
        status: str = "open",
        dispute_id: str = DISPUTE,
        within: timedelta = timedelta(hours=1),
    ) -> TierDispute:
        dispute = TierDispute(
            dispute_id=dispute_id,
            dispute_type="resource_conflict",
            severity="high",
            status=status,
            level=level,
            parties=(BILLING, AUDIT),
            tier_deadline=self.clock.now() + within,
            record_hash="sha256:" + "ab" * 32,
        )
        self.desk.add(dispute)
        return dispute

    def dispute(self, dispute_id: str = DISPUTE) -> TierDispute:
        return self.desk.disputes[dispute_id]

    def event_types(self) -> list[str]:
        return [e.event_type for e in self.ledger.tail(1000)]

    def flip(self, dispute_id: str = DISPUTE, choices: Mapping[str, str] | None = None) -> None:
        """Both parties commit and reveal (each its own 32-byte nonce)."""
        choices = choices or {BILLING.agent_id: "seed", AUDIT.agent_id: "seed"}
        nonces = {a: hashlib.sha256(a.encode()).digest() for a in choices}
        negotiation = self.tiers.negotiation
        for agent, choice in choices.items():
            made = commitment(dispute_id, agent, nonces[agent], choice)
            negotiation.commit(dispute_id, self.keys[agent], made)
        for agent, choice in choices.items():
            negotiation.reveal(dispute_id, self.keys[agent], nonces[agent], choice)


def at(clock: FrozenClock, moment: datetime) -> None:
    clock.advance(moment - clock.now())
