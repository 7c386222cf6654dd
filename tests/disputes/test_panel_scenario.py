"""Tier 2 as a party lives it, written from the text (R7, R10–R15, R17, R19–R21), through
``Accord`` on both engines: a dispute is filed, tier-1 negotiation fails and the deadline
takes it to a panel; a member proposes a §6 resolution with an action; the panel votes it
binding; the action becomes a compliance row with the action's deadline; the party does not
comply and a ``policy_conflict`` dispute opens at human appeal. And an advisory panel's
recommendation: nothing resolved until the parties accept, and one party escalating takes the
dispute to the principals instead."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from pathlib import Path

from accord.app import Accord
from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.dcp07.negotiation import commitment

BILLING = {"agent_id": "agent:billing", "principal_id": "human:ana", "organization_id": "acme"}
AUDIT = {"agent_id": "agent:audit", "principal_id": "human:bo", "organization_id": "globex"}
ARBITRATORS = ("arb:00", "arb:01", "arb:02")
POOL = "arbitrators:\n  members:\n" + "".join(
    f'    - {{agent_id: "{a}", principal_id: "human:c{i}", '
    f"organization_id: {('acme', 'initech')[i % 2]}, vitality: 900}}\n"
    for i, a in enumerate(ARBITRATORS)
)


def key_of(name: str) -> Ed25519Signer:
    return Ed25519Signer.from_seed(hashlib.sha256(f"scenario:{name}".encode()).digest())


def _accord(tmp_path: Path, url: str, clock: FrozenClock, *, advisory: bool = False) -> Accord:
    config = tmp_path / "accord.yaml"
    config.write_text(POOL + ("  mode: advisory\n" if advisory else ""), encoding="utf-8")
    accord = Accord.open(config, db_url=url, keys_dir=tmp_path / "keys", clock=clock)
    for party in (BILLING, AUDIT):
        accord.ledger.register_key(key_of(party["agent_id"]).public_key, "agent", party["agent_id"])
    for arbitrator in ARBITRATORS:
        accord.ledger.register_key(key_of(arbitrator).public_key, "arbitrator", arbitrator)
    return accord


def _to_a_seated_panel(accord: Accord, clock: FrozenClock) -> str:
    """File; tier-1 negotiation fails (a proposal nobody accepts, then the deadline); the
    parties flip for the panel's seed, nominate, and the panel is seated."""
    disputes = accord.disputes
    dispute_id = disputes.open(
        {
            "dispute_type": "resource_conflict",
            "severity": "high",
            "complainant": BILLING,
            "respondents": [AUDIT],
            "subject": "who keeps the GPU slot",
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
    disputes.tiers.negotiation.propose(dispute_id, key_of(BILLING["agent_id"]), "billing keeps it")
    deadline = disputes.show(dispute_id).record.escalation_deadline
    assert deadline is not None
    clock.advance(datetime.fromisoformat(deadline.replace("Z", "+00:00")) - clock.now())
    clock.advance(timedelta(seconds=1))
    accord.sweep_deadlines()
    escalated = disputes.show(dispute_id).record
    assert escalated.current_escalation_level.value == "contextual_arbitration"
    nonces = {
        p["agent_id"]: hashlib.sha256(p["agent_id"].encode()).digest() for p in (BILLING, AUDIT)
    }
    negotiation = disputes.tiers.negotiation
    for agent, nonce in nonces.items():
        negotiation.commit(dispute_id, key_of(agent), commitment(dispute_id, agent, nonce, "seed"))
    for agent, nonce in nonces.items():
        negotiation.reveal(dispute_id, key_of(agent), nonce, "seed")
    arbitration = disputes.tiers.arbitration
    arbitration.nominate(dispute_id, key_of(BILLING["agent_id"]), ARBITRATORS[:2])
    arbitration.nominate(dispute_id, key_of(AUDIT["agent_id"]), ARBITRATORS[2:])
    arbitration.form_panel(
        dispute_id,
        question="Who keeps the GPU slot?",
        positions={BILLING["agent_id"]: "booked first", AUDIT["agent_id"]: "statute"},
        favours=BILLING["agent_id"],
        resolution="billing keeps the slot",
    )
    return dispute_id


def _all_approve(accord: Accord, dispute_id: str) -> None:
    arbitration = accord.disputes.tiers.arbitration
    for agent in ARBITRATORS:
        arbitration.vote(dispute_id, key_of(agent), "approve", f"{agent}: billing booked first")
    arbitration.sign_resolution(dispute_id, key_of(ARBITRATORS[0]))  # M = 2 signatures


def test_a_binding_panel_decision_obliges_audit_and_its_non_compliance_opens_a_policy_conflict(
    database_url: str, tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    accord = _accord(tmp_path, database_url, frozen_clock)
    try:
        dispute_id = _to_a_seated_panel(accord, frozen_clock)
        due = frozen_clock.now() + timedelta(days=3)
        proposed = accord.disputes.tiers.arbitration.propose(
            dispute_id,
            key_of(ARBITRATORS[1]),
            favours=BILLING["agent_id"],
            description="billing keeps the slot; audit releases its reservation",
            actions_required=[
                {
                    "agent_id": AUDIT["agent_id"],
                    "action": "release the reservation",
                    "deadline": due,
                }
            ],
        )
        _all_approve(accord, dispute_id)
        resolved = accord.disputes.show(dispute_id)
        assert resolved.status == "resolved"
        resolution = resolved.resolution
        assert resolution is not None
        assert resolution.resolution_type.value == "binding_resolution"
        assert resolution.outcome.actions_required == proposed.proposal.actions_required
        (owed,) = accord.disputes.compliance.actions(dispute_id=dispute_id)
        assert (owed.agent_id, owed.action, owed.due_at) == (
            AUDIT["agent_id"],
            "release the reservation",
            due,
        )
        frozen_clock.advance(timedelta(days=3, seconds=1))
        accord.sweep_deadlines()
        (failed,) = accord.disputes.compliance.actions(dispute_id=dispute_id)
        assert failed.state.value == "failed"
        assert failed.followup_dispute_id is not None
        followup = accord.disputes.show(failed.followup_dispute_id).record
        assert followup.dispute_type.value == "policy_conflict"
        assert followup.current_escalation_level.value == "human_appeal"
        accord.verify()
    finally:
        accord.close()


def test_a_recommendation_resolves_nothing_and_a_party_escalating_takes_it_to_human_appeal(
    database_url: str, tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    accord = _accord(tmp_path, database_url, frozen_clock, advisory=True)
    try:
        dispute_id = _to_a_seated_panel(accord, frozen_clock)
        _all_approve(accord, dispute_id)
        waiting = accord.disputes.show(dispute_id)
        assert waiting.status == "arbitrating"
        assert waiting.resolution is None
        seated = accord.disputes.tiers.arbitration.panel(dispute_id)
        assert seated is not None
        assert seated.recommendation is not None
        accord.disputes.tiers.arbitration.accept_recommendation(
            dispute_id, key_of(BILLING["agent_id"])
        )
        assert accord.disputes.show(dispute_id).status == "arbitrating"
        accord.disputes.escalate(
            dispute_id, by=AUDIT["agent_id"], to_tier="human_appeal", reason="statute"
        )
        appealed = accord.disputes.show(dispute_id)
        assert appealed.status == "appealing"
        assert appealed.record.current_escalation_level.value == "human_appeal"
        assert appealed.resolution is None
        accord.verify()
    finally:
        accord.close()


def test_r15_r4_a_recommendation_awaiting_the_parties_does_not_stop_the_tiers_deadline(
    database_url: str, tmp_path: Path, frozen_clock: FrozenClock
) -> None:
    accord = _accord(tmp_path, database_url, frozen_clock, advisory=True)
    try:
        dispute_id = _to_a_seated_panel(accord, frozen_clock)
        _all_approve(accord, dispute_id)
        deadline = accord.disputes.show(dispute_id).record.escalation_deadline
        assert deadline is not None
        due = datetime.fromisoformat(deadline.replace("Z", "+00:00"))
        frozen_clock.advance(due - frozen_clock.now() + timedelta(seconds=1))
        accord.sweep_deadlines()
        lapsed = accord.disputes.show(dispute_id)
        assert lapsed.record.current_escalation_level.value == "human_appeal"
        assert lapsed.resolution is None
    finally:
        accord.close()
