"""A dispute service with an approval queue and a panel of human members (shared by the
human-member and ballot-withdrawal tests)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from accord.approvals import ApprovalQueue, Principal, Reviewer
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.dcp07.negotiation import commitment
from accord.disputes import Disputes
from accord.disputes.tiers import ArbitratorSettings
from accord.ledger import Ledger
from accord.store import Database

from ._world import AUDIT, BILLING, POOL_IDS, seed

QUESTION = "Who keeps the GPU reservation for the nightly batch?"
POSITIONS = {BILLING.agent_id: "We booked it first.", AUDIT.agent_id: "Audit is statutory."}
HUMANS = POOL_IDS[:4]


def _pool(humans: tuple[str, ...] = HUMANS) -> ArbitratorSettings:
    return ArbitratorSettings.model_validate(
        {
            "members": [
                {
                    "agent_id": agent_id,
                    "principal_id": f"human:{agent_id[4:]}",
                    "organization_id": ("acme", "initech")[i % 2],
                    "vitality": 900,
                    "kind": "human" if agent_id in humans else "agent",
                }
                for i, agent_id in enumerate(POOL_IDS)
            ]
        }
    )


class Panel:
    """The dispute service with an approval queue, the parties' and members' keys."""

    def __init__(
        self,
        db: Database,
        ledger: Ledger,
        clock: FrozenClock,
        *,
        queue: bool = True,
        owners: Mapping[str, str] | None = None,
    ) -> None:
        """``owners``: the org chart's agent → principal map the approval queue refuses by."""
        self.clock = clock
        self.ledger = ledger
        self.queue = ApprovalQueue(db, clock, party_owners=owners) if queue else None
        self.disputes = Disputes(ledger, clock, arbitrators=_pool(), approvals=self.queue)
        self.arbitration = self.disputes.tiers.arbitration
        self.keys: dict[str, Ed25519Signer] = {}
        for agent in (BILLING.agent_id, AUDIT.agent_id):
            self.keys[agent] = self._key(agent, "agent")
        for agent in POOL_IDS:
            self.keys[agent] = self._key(agent, "arbitrator")
            principal = f"human:{agent[4:]}"
            self.keys[principal] = self._key(principal, "reviewer")

    def _key(self, name: str, role: Any) -> Ed25519Signer:
        signer = seed(f"human-panel:{role}:{name}")
        self.ledger.register_key(signer.public_key, role, name)
        return signer

    def reviewer(self, member: str) -> Reviewer:
        principal = f"human:{member[4:]}"
        return Reviewer(Principal(principal_id=principal), self.keys[principal])

    def seat(self) -> tuple[str, tuple[str, ...]]:
        dispute_id = self.disputes.open(
            {
                "dispute_type": "resource_conflict",
                "severity": "high",
                "complainant": BILLING,
                "respondents": [AUDIT],
                "subject": "both booked the GPU for tonight",
                "evidence": [
                    {
                        "evidence_type": "log",
                        "reference": "log:1",
                        "description": "booking log",
                        "content": {"booked": 1},
                    }
                ],
            }
        ).dispute_id
        self.disputes.escalate(dispute_id, by=BILLING.agent_id)
        negotiation = self.disputes.tiers.negotiation
        nonces = {
            a: hashlib.sha256(a.encode()).digest() for a in (BILLING.agent_id, AUDIT.agent_id)
        }
        for agent, nonce in nonces.items():
            made = commitment(dispute_id, agent, nonce, "seed")
            negotiation.commit(dispute_id, self.keys[agent], made)
        for agent, nonce in nonces.items():
            negotiation.reveal(dispute_id, self.keys[agent], nonce, "seed")
        self.arbitration.nominate(dispute_id, self.keys[BILLING.agent_id], HUMANS[:2])
        self.arbitration.nominate(dispute_id, self.keys[AUDIT.agent_id], HUMANS[2:])
        formation = self.arbitration.form_panel(
            dispute_id,
            question=QUESTION,
            positions=POSITIONS,
            favours=BILLING.agent_id,
            resolution="billing keeps the slot",
        )
        return dispute_id, formation.member_ids

    def paper(self, dispute_id: str, member: str) -> str:
        papers = {p.agent_id: p.item_id for p in self.arbitration.ballot_papers(dispute_id)}
        return papers[member]

    def decide(self, dispute_id: str, member: str, choice: str, *, by: str | None = None) -> None:
        assert self.queue is not None
        self.queue.decide(
            self.paper(dispute_id, member),
            self.reviewer(by or member),
            outcome="approved",
            choice=choice,
            reason=f"{member} says {choice}",
        )
