"""Tiers 1–3 end to end through the persisted dispute service (``Disputes.tiers``): each step
re-signs the §4 record with its R30 event, resolution writes ``dispute_resolved`` and cancels
the tier deadline, a failed negotiation escalates at its deadline (R9), a split decision
goes to the principals (R15, R16), a party may skip to them (R17), a critical dispute may
start there (R18)."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from accord.app.deadline_sweep import deadline_sweep
from accord.approvals import ApprovalQueue, Principal, Reviewer
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.dcp07 import ResolutionRecord, read_record
from accord.dcp07.negotiation import commitment
from accord.dcp07.signing import verify_resolution
from accord.deadlines import DeadlineSweep
from accord.disputes import Disputes
from accord.disputes.tiers import ArbitratorSettings
from accord.errors import AccordError
from accord.ledger import Ledger, TrustRoot
from accord.precedents import Precedents, PrecedentSearch, PrecedentStore
from accord.store import Database
from accord.store.tables import deadlines

from ._world import AUDIT, BILLING, POOL_IDS, pool_settings, seed

ANA, BO = "human:ana", "human:bo"
QUESTION = "Who keeps the GPU reservation for the nightly batch?"
POSITIONS = {BILLING.agent_id: "We booked it first.", AUDIT.agent_id: "Audit is statutory."}


class Stage:
    """The dispute service with its tiers, the parties', arbitrators' and principals' keys."""

    def __init__(self, db: Database, ledger: Ledger, clock: FrozenClock, pool: ArbitratorSettings):
        self.clock = clock
        self.ledger = ledger
        self.precedents = Precedents(PrecedentStore(db, clock), PrecedentSearch(db), ledger.signer)
        self.disputes = Disputes(ledger, clock, precedents=self.precedents, arbitrators=pool)
        self.sweep: DeadlineSweep = deadline_sweep(
            db, clock, ApprovalQueue(db, clock), disputes=self.disputes.deadlines
        )
        self.keys: dict[str, Ed25519Signer] = {}
        for agent in (BILLING.agent_id, AUDIT.agent_id):
            self.keys[agent] = self._key(agent, "agent")
        for agent in POOL_IDS:
            self.keys[agent] = self._key(agent, "arbitrator")
        for principal in (ANA, BO):
            self.keys[principal] = self._key(principal, "reviewer")
        self.db = db

    def _key(self, name: str, role: Any) -> Ed25519Signer:
        signer = seed(f"e2e:{role}:{name}")
        self.ledger.register_key(signer.public_key, role, name)
        return signer

    def open(self, **changes: Any) -> str:
        filing = {
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
            **changes,
        }
        return self.disputes.open(filing).dispute_id

    def status(self, dispute_id: str) -> tuple[str, str]:
        shown = self.disputes.show(dispute_id)
        return shown.status, shown.tier

    def timeline(self, dispute_id: str) -> list[str]:
        return [e.event for e in self.disputes.show(dispute_id).record.timeline]

    def deadline_states(self, dispute_id: str) -> list[str]:
        with self.db.read() as conn:
            return list(
                conn.execute(
                    select(deadlines.c.state).where(deadlines.c.subject_id == dispute_id)
                ).scalars()
            )

    def flip(self, dispute_id: str) -> None:
        negotiation = self.disputes.tiers.negotiation
        nonces = {
            a: hashlib.sha256(a.encode()).digest() for a in (BILLING.agent_id, AUDIT.agent_id)
        }
        for agent, nonce in nonces.items():
            negotiation.commit(
                dispute_id, self.keys[agent], commitment(dispute_id, agent, nonce, "seed")
            )
        for agent, nonce in nonces.items():
            negotiation.reveal(dispute_id, self.keys[agent], nonce, "seed")

    def seat(self, dispute_id: str) -> tuple[str, ...]:
        self.flip(dispute_id)
        arbitration = self.disputes.tiers.arbitration
        arbitration.nominate(dispute_id, self.keys[BILLING.agent_id], POOL_IDS[:2])
        arbitration.nominate(dispute_id, self.keys[AUDIT.agent_id], POOL_IDS[2:4])
        formation = arbitration.form_panel(
            dispute_id,
            question=QUESTION,
            positions=POSITIONS,
            favours=BILLING.agent_id,
            resolution="billing keeps the slot",
        )
        return formation.member_ids


@pytest.fixture
def stage(db: Database, ledger: Ledger, frozen_clock: FrozenClock) -> Stage:
    return Stage(db, ledger, frozen_clock, pool_settings())


def test_r07_r30_an_accepted_proposal_resolves_the_stored_dispute(stage: Stage) -> None:
    dispute_id = stage.open()
    negotiation = stage.disputes.tiers.negotiation
    proposal = negotiation.propose(dispute_id, stage.keys[BILLING.agent_id], "billing first")
    assert stage.status(dispute_id) == ("negotiating", "direct_negotiation")
    negotiation.accept(dispute_id, stage.keys[AUDIT.agent_id], proposal.proposal_id)

    shown = stage.disputes.show(dispute_id)
    assert (shown.status, shown.tier) == ("resolved", "direct_negotiation")
    assert shown.resolution is not None
    assert shown.resolution.outcome.description == "billing first"
    assert stage.timeline(dispute_id)[-3:] == [
        "dispute_negotiation_proposal",
        "dispute_negotiation_proposal",
        "dispute_resolved",
    ]
    assert "armed" not in stage.deadline_states(dispute_id)
    assert stage.precedents.count() == 1  # R23


def test_r09_a_negotiation_that_fails_by_its_deadline_escalates_to_a_panel(stage: Stage) -> None:
    dispute_id = stage.open()
    stage.disputes.tiers.negotiation.propose(dispute_id, stage.keys[BILLING.agent_id], "mine")
    stage.clock.advance(timedelta(hours=1, seconds=1))
    stage.sweep.run()
    assert stage.status(dispute_id) == ("escalated", "contextual_arbitration")
    with pytest.raises(AccordError) as refused:
        stage.disputes.tiers.negotiation.propose(dispute_id, stage.keys[AUDIT.agent_id], "late")
    assert refused.value.code == "disputes.wrong_tier"


def test_r10_r14_r15_a_panel_decides_the_escalated_dispute(stage: Stage) -> None:
    dispute_id = stage.open()
    stage.disputes.escalate(dispute_id, by=BILLING.agent_id, reason="no agreement")
    assert stage.status(dispute_id)[1] == "contextual_arbitration"
    members = stage.seat(dispute_id)
    assert stage.status(dispute_id) == ("arbitrating", "contextual_arbitration")
    arbitration = stage.disputes.tiers.arbitration
    for agent in members:
        arbitration.vote(dispute_id, stage.keys[agent], "approve", f"{agent} approves")
    arbitration.sign_resolution(dispute_id, stage.keys[members[0]])
    shown = stage.disputes.show(dispute_id)
    assert shown.status == "resolved"
    assert shown.resolution is not None
    verify_resolution(shown.resolution, {a: stage.keys[a].public_key for a in members})
    events = stage.timeline(dispute_id)
    assert "arbitration_panel_formed" in events
    assert events.count("arbitration_vote_cast") == 3
    assert events[-1] == "dispute_resolved"


def test_r15_r16_a_split_panel_goes_to_the_principals_whose_decision_is_final(
    stage: Stage,
) -> None:
    dispute_id = stage.open()
    stage.disputes.escalate(dispute_id, by=AUDIT.agent_id)
    members = stage.seat(dispute_id)
    for agent, choice in zip(members, ("dissent", "approve", "dissent"), strict=True):
        stage.disputes.tiers.arbitration.vote(dispute_id, stage.keys[agent], choice, "reasons")  # type: ignore[arg-type]
    assert stage.status(dispute_id) == ("appealing", "human_appeal")
    escalation = stage.ledger.tail(1)[0]
    assert escalation.event_type == "dispute_escalated"
    split = read_record(ResolutionRecord, escalation.record["details"]["split_decision"])
    assert (split.resolution_type.value, split.dispute_id) == ("split_decision", dispute_id)
    verify_resolution(
        split, {a: stage.keys[a].public_key for a in members}, required_signers=(members[-1],)
    )
    reviewers = [stage_reviewer(stage, p) for p in (ANA, BO)]
    record = stage.disputes.tiers.appeal.decide_appeal(
        dispute_id, reviewers, outcome="audit runs first", reasoning="statutory deadline"
    )
    shown = stage.disputes.show(dispute_id)
    assert shown.status == "resolved"
    assert shown.resolution == record
    assert record.resolution_level.value == "human_appeal"
    verify_resolution(
        record, {p: stage.keys[p].public_key for p in (ANA, BO)}, required_signers=(ANA, BO)
    )


def test_r17_a_party_skips_to_human_appeal_and_the_principals_decide(stage: Stage) -> None:
    dispute_id = stage.open()
    stage.disputes.escalate(dispute_id, by=AUDIT.agent_id, to_tier="human_appeal")
    reviewers = [stage_reviewer(stage, p) for p in (ANA, BO)]
    stage.disputes.tiers.appeal.decide_appeal(
        dispute_id, reviewers, outcome="share the GPU", reasoning="both need it"
    )
    assert stage.status(dispute_id) == ("resolved", "human_appeal")


def test_r18_a_critical_dispute_starting_at_appeal_is_decided_by_the_principals(
    stage: Stage,
) -> None:
    dispute_id = stage.open(severity="critical", start_at_appeal=True)
    assert stage.status(dispute_id)[1] == "human_appeal"
    reviewers = [stage_reviewer(stage, p) for p in (ANA, BO)]
    stage.disputes.tiers.appeal.decide_appeal(
        dispute_id, reviewers, outcome="stop the job", reasoning="critical"
    )
    assert stage.status(dispute_id) == ("resolved", "human_appeal")


def stage_reviewer(stage: Stage, principal_id: str) -> Reviewer:
    return Reviewer(Principal(principal_id=principal_id), stage.keys[principal_id])


def test_r38_a_dispute_climbs_all_three_tiers_to_a_final_decision(stage: Stage) -> None:
    dispute_id = stage.open()
    stage.disputes.tiers.negotiation.propose(dispute_id, stage.keys[BILLING.agent_id], "mine")
    stage.clock.advance(timedelta(hours=1, seconds=1))
    stage.sweep.run()  # tier 1 failed by its deadline (R9)
    members = stage.seat(dispute_id)
    for agent, choice in zip(members, ("dissent", "dissent", "approve"), strict=True):
        stage.disputes.tiers.arbitration.vote(dispute_id, stage.keys[agent], choice, "reasons")  # type: ignore[arg-type]
    assert stage.status(dispute_id) == ("appealing", "human_appeal")
    stage.disputes.tiers.appeal.decide_appeal(
        dispute_id,
        [stage_reviewer(stage, p) for p in (ANA, BO)],
        outcome="billing first",
        reasoning="the booking came first",
    )
    assert stage.status(dispute_id) == ("resolved", "human_appeal")
    events = stage.timeline(dispute_id)
    for event in (
        "dispute_opened",
        "dispute_negotiation_proposal",
        "dispute_escalated",
        "arbitration_panel_formed",
        "arbitration_vote_cast",
        "dispute_resolved",
    ):
        assert event in events
    root = TrustRoot(stage.ledger.signer.kid, stage.ledger.signer.public_key)
    assert stage.ledger.verify(root).entries == stage.ledger.size()  # the chain still verifies


def test_r07_a_read_only_instance_refuses_tier_steps(
    db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    writer = Stage(db, ledger, frozen_clock, pool_settings())
    dispute_id = writer.open()
    reader = Disputes(ledger, frozen_clock, arbitrators=pool_settings(), read_only=True)
    size = ledger.size()
    with pytest.raises(AccordError) as refused:
        reader.tiers.negotiation.propose(dispute_id, writer.keys[BILLING.agent_id], "mine")
    assert refused.value.code == "accord.read_only"
    assert ledger.size() == size


def test_r11_an_arbitrator_in_an_active_stored_dispute_with_a_party_is_not_seated(
    stage: Stage,
) -> None:
    busy = {"agent_id": "arb:00", "principal_id": "human:00", "organization_id": "acme"}
    stage.open(complainant=busy, respondents=[BILLING])
    dispute_id = stage.open()
    stage.disputes.escalate(dispute_id, by=BILLING.agent_id)
    stage.seat(dispute_id)
    seated = stage.disputes.tiers.arbitration.panel(dispute_id)
    assert seated is not None
    reasons = {e.agent_id: e for e in seated.formation.eligibility}
    assert reasons["arb:00"].breaks("R11")
    assert "arb:00" not in seated.formation.member_ids


def test_r16_principals_deciding_in_turn_resolve_the_stored_dispute_with_its_bundle(
    stage: Stage,
) -> None:
    dispute_id = stage.open()
    stage.disputes.escalate(dispute_id, by=AUDIT.agent_id, to_tier="human_appeal")
    appeal = stage.disputes.tiers.appeal
    proposed = appeal.propose_appeal(
        dispute_id, stage.keys[ANA], outcome="audit runs first", reasoning="statutory deadline"
    )
    assert stage.status(dispute_id) == ("appealing", "human_appeal")
    done = appeal.sign_appeal(dispute_id, stage.keys[BO], proposed.proposal_id)
    shown = stage.disputes.show(dispute_id)
    assert (shown.status, shown.resolution) == ("resolved", done.resolution)
    assert done.resolution is not None
    verify_resolution(
        done.resolution,
        {p: stage.keys[p].public_key for p in (ANA, BO)},
        required_signers=(ANA, BO),
    )
    assert stage.timeline(dispute_id)[-3:] == [
        "dispute_negotiation_proposal",
        "dispute_negotiation_proposal",
        "dispute_resolved",
    ]
    assert stage.precedents.count() == 1  # R23, filed in the resolving transaction
    assert stage.disputes.verify_resolution(dispute_id) == done.resolution
    root = TrustRoot(stage.ledger.signer.kid, stage.ledger.signer.public_key)
    assert stage.ledger.verify(root).entries == stage.ledger.size()
