"""Prepare-then-sign at tier 2: parties nominate and panel members vote and sign the decided
record with their own keys, through the same prepared steps as tier 1."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from accord.clock import FrozenClock
from accord.conflicts import Tier
from accord.dcp07.signing import verify_resolution
from accord.disputes.tiers.prepared import sign_payloads
from accord.ledger import Ledger
from accord.store import Database

from ._world import AUDIT, BILLING, DISPUTE, POOL_IDS, World, pool_settings

RESOLUTION = "billing keeps the slot"
QUESTION = "Who keeps the GPU reservation for the nightly batch?"
POSITIONS = {
    BILLING.agent_id: "billing booked first and the invoice run is due",
    AUDIT.agent_id: "the audit window is statutory",
}


def _by_own_key(world: World, agent: str, step: dict[str, Any]) -> tuple[Any, int]:
    """The completed step's result and how many payloads the agent signed."""
    prepared = world.tiers.prepared.prepare(DISPUTE, step, by=agent)
    while True:
        signed = sign_payloads(
            prepared,
            world.keys[agent],
            agent_id=agent,
            dispute_id=DISPUTE,
            step=step,
            resolves_with=RESOLUTION,
        )
        outcome = world.tiers.prepared.complete(prepared.prepared_id, signed, by=agent)
        if outcome.status == "completed":
            return outcome.result, outcome.prepared.signed
        prepared = outcome.prepared


def test_a_panel_is_nominated_voted_and_its_record_signed_by_the_members_own_keys(
    world: World,
) -> None:
    world.open(level=Tier.CONTEXTUAL_ARBITRATION, status="escalated")
    world.flip()
    nominated, signed = _by_own_key(
        world, BILLING.agent_id, {"step": "nominate", "agent_ids": list(POOL_IDS[:2])}
    )
    assert signed == 0  # a nomination signs nothing (no payload)
    assert [n.agent_id for n in nominated.items] == list(POOL_IDS[:2])
    _by_own_key(world, AUDIT.agent_id, {"step": "nominate", "agent_ids": list(POOL_IDS[2:4])})
    formation = world.tiers.arbitration.form_panel(
        DISPUTE,
        question=QUESTION,
        positions=POSITIONS,
        favours=BILLING.agent_id,
        resolution=RESOLUTION,
    )
    members = [m.agent_id for m in formation.members]

    rounds = []
    for member in members:
        vote = {"step": "vote", "vote": "approve", "reasoning": f"{member}: billing was first"}
        rounds.append(_by_own_key(world, member, vote)[1])
    for member in members:
        if world.dispute().status != "resolved" and member not in _signed(world):
            _by_own_key(world, member, {"step": "sign_resolution"})

    assert rounds[-1] == 2  # the last vote also signs the decided record
    assert world.dispute().status == "resolved"
    resolution = world.desk.resolutions[DISPUTE]
    keys = {m: world.keys[m].public_key for m in members}
    verify_resolution(resolution, keys)
    assert len(resolution.signatures) >= 2  # members who signed it after the last vote


def _signed(world: World) -> set[str]:
    """The members who signed the panel's record awaiting signatures."""
    seated = world.tiers.arbitration.panel(DISPUTE)
    assert seated is not None
    assert seated.pending_resolution is not None
    return {s.agent_id for s in seated.pending_resolution.signatures}


def _seated(world: World) -> list[str]:
    world.open(level=Tier.CONTEXTUAL_ARBITRATION, status="escalated")
    world.flip()
    world.tiers.arbitration.nominate(DISPUTE, world.keys[BILLING.agent_id], POOL_IDS[:2])
    world.tiers.arbitration.nominate(DISPUTE, world.keys[AUDIT.agent_id], POOL_IDS[2:4])
    formation = world.tiers.arbitration.form_panel(
        DISPUTE,
        question=QUESTION,
        positions=POSITIONS,
        favours=BILLING.agent_id,
        resolution=RESOLUTION,
    )
    return [m.agent_id for m in formation.members]


def test_r14_a_member_proposes_a_resolution_with_an_action_by_its_own_key(world: World) -> None:
    members = _seated(world)
    due = (world.clock.now() + timedelta(days=2)).isoformat()
    step = {
        "step": "panel_propose",
        "favours": BILLING.agent_id,
        "description": "billing keeps the slot; audit moves its run",
        "actions_required": [{"agent_id": AUDIT.agent_id, "action": "move", "deadline": due}],
    }
    asked, signed = _by_own_key(world, members[0], step)
    assert signed == 1
    assert asked.proposal.proposed_by == members[0]
    seated = world.tiers.arbitration.panel(DISPUTE)
    assert seated is not None
    assert seated.question.resolution_hash == asked.resolution_hash


def test_r15_a_party_accepts_a_recommendation_by_its_own_key(
    db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    world = World(db, ledger, frozen_clock, arbitrators=pool_settings(mode="advisory"))
    members = _seated(world)
    for member in members:
        world.tiers.arbitration.vote(DISPUTE, world.keys[member], "approve", "fine")
    world.tiers.arbitration.sign_resolution(DISPUTE, world.keys[members[0]])
    for party in (BILLING.agent_id, AUDIT.agent_id):
        accepted, signed = _by_own_key(world, party, {"step": "accept_recommendation"})
        assert signed == 1
        assert party in accepted.accepted_by
    assert world.dispute().status == "resolved"
