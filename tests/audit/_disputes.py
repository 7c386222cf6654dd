"""DCP-07 disputes in the populated database, through every step main stores: opened with
JSON and byte evidence, more evidence, tier-1 negotiation and a coin flip, resolved by
agreement; escalated by a party to a panel that is seated, votes (one dissent) on a member's
proposal with a required action and signs; taken to the principals' appeal; withdrawn;
nominees put forward, no panel yet; a binding resolution with required actions that fail (a
follow-up dispute and a flag) or are stayed; objections (one routed to appeal); an advisory
panel's recommendation one party accepted."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from accord.app import Accord
from accord.approvals import Principal, Reviewer
from accord.clock import FrozenClock, isoformat
from accord.crypto import Ed25519Signer
from accord.dcp07 import ResolutionRecord, cosigned, read_record
from accord.dcp07.negotiation import commitment
from accord.ids import new_id

BILLING = {"agent_id": "agent:billing", "principal_id": "human:ana", "organization_id": "acme"}
AUDIT = {"agent_id": "agent:audit", "principal_id": "human:bo", "organization_id": "globex"}
ARBITRATORS = ("arb:00", "arb:01", "arb:02")
ARBITRATOR_CONFIG = "arbitrators:\n  members:\n" + "".join(
    f'    - {{agent_id: "{a}", principal_id: "human:c{i}", organization_id: '
    f"{('acme', 'initech')[i % 2]}, vitality: 900}}\n"
    for i, a in enumerate(ARBITRATORS)
)
GROUNDS = {
    "summary": "The agreement ignored the booking log",
    "detailed_reasoning": "Evidence log:1 shows billing booked first.",
    "evidence_references": ["log:1"],
}
REMEDY = {"type": "rehearing", "description": "Hear the dispute again with the log"}


def key_of(name: str) -> Ed25519Signer:
    return Ed25519Signer.from_seed(hashlib.sha256(f"audit:{name}".encode()).digest())


def _filing(subject: str, content: Any) -> dict[str, Any]:
    return {
        "dispute_type": "resource_conflict",
        "severity": "high",
        "complainant": BILLING,
        "respondents": [AUDIT],
        "subject": subject,
        "evidence": [
            {
                "evidence_type": "log",
                "reference": "log:1",
                "description": "booking log",
                "content": content,
            }
        ],
    }


def _flip(accord: Accord, dispute_id: str) -> None:
    tiers = accord.disputes.tiers.negotiation
    nonces = {
        a["agent_id"]: hashlib.sha256(a["agent_id"].encode()).digest() for a in (BILLING, AUDIT)
    }
    for agent, nonce in nonces.items():
        tiers.commit(dispute_id, key_of(agent), commitment(dispute_id, agent, nonce, "seed"))
    for agent, nonce in nonces.items():
        tiers.reveal(dispute_id, key_of(agent), nonce, "seed")


def _resolve_with_actions(accord: Accord, clock: FrozenClock, dispute_id: str) -> ResolutionRecord:
    """A binding resolution with three required actions (two owed by audit, one by billing)."""
    disputes = accord.disputes
    now = clock.now()
    due = isoformat(now + timedelta(hours=6))
    document: dict[str, Any] = {
        "resolution_id": new_id("res", now),
        "dispute_id": dispute_id,
        "resolution_level": "direct_negotiation",
        "resolution_type": "binding_resolution",
        "outcome": {
            "description": "billing keeps the GPU tonight",
            "actions_required": [
                {"agent_id": AUDIT["agent_id"], "action": "Release the GPU", "deadline": due},
                {"agent_id": AUDIT["agent_id"], "action": "Cancel the booking", "deadline": due},
                {"agent_id": BILLING["agent_id"], "action": "Book for Friday", "deadline": due},
            ],
            "compliance_verification_method": "audit_chain_review",
            "compliance_deadline": due,
        },
        "reasoning": "billing booked first",
        "precedents_applied": [],
        "effective_at": isoformat(now),
        "timestamp": isoformat(now),
        "prev_hash": "GENESIS",
        "prev_hash_secondary": "GENESIS",
        "signatures": [],
    }
    with disputes.transaction() as conn:
        document.update(disputes.chain_link_within(conn).model_dump())
        record = read_record(ResolutionRecord, document)
        for party in (BILLING, AUDIT):
            record = cosigned(record, party["agent_id"], key_of(party["agent_id"]))
        disputes.resolve_within(
            conn, dispute_id, record, actor=BILLING["agent_id"], resolved_against=["agent:audit"]
        )
    return record


def populate_disputes(accord: Accord, clock: FrozenClock) -> None:
    ledger = accord.ledger
    for party in (BILLING, AUDIT):
        ledger.register_key(key_of(party["agent_id"]).public_key, "agent", party["agent_id"])
    for arbitrator in ARBITRATORS:
        ledger.register_key(key_of(arbitrator).public_key, "arbitrator", arbitrator)
    reviewers = {}
    for party in (BILLING, AUDIT):
        principal = party["principal_id"]
        ledger.register_key(key_of(principal).public_key, "reviewer", principal)
        reviewers[principal] = Reviewer(Principal(principal_id=principal), key_of(principal))
    disputes = accord.disputes
    # The dispute whose nominees wait for a panel opens a second earlier: its nominations
    # (unsigned until the panel is seated) then sort before the seated panel's by key, and
    # the tamper matrix's "change" of a nomination, which takes the last row, alters a
    # signed one. Opened in the same millisecond, the uuid7 ids would sort at random.
    (nominated,) = (
        d.record.dispute_id
        for d in disputes.open_many([_filing("nominees waiting", {"booked": 4})])
    )
    clock.advance(timedelta(seconds=1))
    agreed, paneled, appealed, withdrawn, bound = (
        d.record.dispute_id
        for d in disputes.open_many(
            [
                _filing("both booked the GPU", {"booked": 1}),
                _filing("who keeps the slot", b"\x00raw log bytes"),
                _filing("statutory deadline", {"booked": 1.5}),
                _filing("a mistake", {"booked": 2}),
                _filing("the GPU again", {"booked": 3}),
            ]
        )
    )
    assert nominated < paneled
    clock.advance(timedelta(seconds=1))
    evidence = {
        "evidence_type": "log",
        "reference": "log:2",
        "description": "more",
        "content": [1, 2],
    }
    disputes.submit_evidence(agreed, evidence, by=AUDIT["agent_id"])
    negotiation = disputes.tiers.negotiation
    _flip(accord, agreed)
    clock.advance(timedelta(seconds=1))
    proposal = negotiation.propose(agreed, key_of(BILLING["agent_id"]), "billing first")
    negotiation.counter_evidence(
        agreed,
        key_of(AUDIT["agent_id"]),
        content_hash="sha256:" + "ab" * 32,
        description="our own log",
    )
    negotiation.accept(agreed, key_of(AUDIT["agent_id"]), proposal.proposal_id)
    disputes.object(agreed, disputes.show(agreed).resolution.resolution_id, AUDIT["agent_id"],
                    "substantive", GROUNDS, REMEDY)  # fmt: skip

    clock.advance(timedelta(seconds=1))
    disputes.escalate(paneled, by=BILLING["agent_id"])
    _flip(accord, paneled)
    arbitration = disputes.tiers.arbitration
    arbitration.nominate(paneled, key_of(BILLING["agent_id"]), ARBITRATORS[:2])
    arbitration.nominate(paneled, key_of(AUDIT["agent_id"]), ARBITRATORS[2:])
    clock.advance(timedelta(seconds=1))
    arbitration.form_panel(
        paneled,
        question="Who keeps the slot?",
        positions={BILLING["agent_id"]: "booked first", AUDIT["agent_id"]: "statute"},
        favours=BILLING["agent_id"],
        resolution="billing keeps it",
    )
    arbitration.propose(  # a member's proposed §6 resolution with a required action (R14, R19)
        paneled,
        key_of(ARBITRATORS[0]),
        favours=BILLING["agent_id"],
        description="billing keeps it; audit books the next slot",
        actions_required=[
            {
                "agent_id": AUDIT["agent_id"],
                "action": "book the next free slot",
                "deadline": clock.now() + timedelta(days=30),
            }
        ],
    )
    for agent, choice in zip(ARBITRATORS, ("approve", "dissent", "approve"), strict=True):
        arbitration.vote(paneled, key_of(agent), choice, f"{agent}: {choice}")  # type: ignore[arg-type]
    arbitration.sign_resolution(paneled, key_of(ARBITRATORS[0]))

    clock.advance(timedelta(seconds=1))
    disputes.escalate(appealed, by=AUDIT["agent_id"], to_tier="human_appeal", reason="statute")
    disputes.tiers.appeal.decide_appeal(
        appealed, list(reviewers.values()), outcome="audit first", reasoning="statutory"
    )
    disputes.withdraw(withdrawn, by=BILLING["agent_id"], reason="filed by mistake")
    disputes.escalate(nominated, by=AUDIT["agent_id"])  # nominees, no panel yet
    arbitration.nominate(nominated, key_of(AUDIT["agent_id"]), ARBITRATORS[:1])

    clock.advance(timedelta(seconds=1))
    resolution = _resolve_with_actions(accord, clock, bound)
    clock.advance(timedelta(seconds=1))
    failed = disputes.comply(bound, AUDIT["agent_id"], {"entries": [1], "note": "done"})
    assert len(failed.failed) == 2
    assert failed.flags
    rights = disputes.object(
        bound, resolution.resolution_id, AUDIT["agent_id"], "rights", GROUNDS, REMEDY
    )
    # a stay is ordered by a principal who owns no party (the parties' own decide the appeal)
    ledger.register_key(key_of("human:carol").public_key, "reviewer", "human:carol")
    carol = Reviewer(Principal(principal_id="human:carol"), key_of("human:carol"))
    disputes.order_stay(rights.objection_id, carol, "heard on appeal")


def populate_recommendation(accord: Accord, clock: FrozenClock) -> None:
    """An advisory panel's recommended resolution, accepted by one party of two (R15): it
    waits for the other, nothing resolved."""
    disputes = accord.disputes
    clock.advance(timedelta(seconds=1))
    (advised,) = (
        d.record.dispute_id for d in disputes.open_many([_filing("advice", {"booked": 5})])
    )
    disputes.escalate(advised, by=BILLING["agent_id"])
    _flip(accord, advised)
    arbitration = disputes.tiers.arbitration
    arbitration.nominate(advised, key_of(BILLING["agent_id"]), ARBITRATORS)
    clock.advance(timedelta(seconds=1))
    arbitration.form_panel(
        advised,
        question="Who keeps the slot?",
        positions={BILLING["agent_id"]: "booked first", AUDIT["agent_id"]: "statute"},
        favours=AUDIT["agent_id"],
        resolution="audit keeps it",
    )
    for agent in ARBITRATORS:
        arbitration.vote(advised, key_of(agent), "approve", f"{agent}: statute wins")
    arbitration.sign_resolution(advised, key_of(ARBITRATORS[0]))  # M = 2 approving signatures
    arbitration.accept_recommendation(advised, key_of(AUDIT["agent_id"]))
