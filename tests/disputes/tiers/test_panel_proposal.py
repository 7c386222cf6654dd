"""Tier 2 deliberates on a proposed §6 resolution (R14, R15, R19, R20, R25): a member puts the
outcome, its required actions, the compliance method and deadline and the precedents applied;
the votes bind that proposal's hash; the decided record carries it; a recommended resolution
waits for the parties, who accept it or escalate."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from accord.clock import FrozenClock, isoformat
from accord.conflicts import Tier
from accord.crypto import RecordSignature, verify_record
from accord.dcp07.panels import PanelRefused, VoteChoice, cast_vote
from accord.errors import AccordError
from accord.ledger import Ledger
from accord.store import Database

from ._world import AUDIT, BILLING, DISPUTE, POOL_IDS, World, at, pool_settings, seed

QUESTION = "Who keeps the GPU reservation for the nightly batch?"
POSITIONS = {BILLING.agent_id: "We booked it first.", AUDIT.agent_id: "Audit has a deadline."}


def _seat(world: World) -> Any:
    world.open(level=Tier.CONTEXTUAL_ARBITRATION, status="escalated")
    world.flip()
    world.tiers.arbitration.nominate(DISPUTE, world.keys[BILLING.agent_id], POOL_IDS[:2])
    world.tiers.arbitration.nominate(DISPUTE, world.keys[AUDIT.agent_id], POOL_IDS[2:4])
    return world.tiers.arbitration.form_panel(
        DISPUTE,
        question=QUESTION,
        positions=POSITIONS,
        favours=BILLING.agent_id,
        resolution="billing keeps the slot",
    )


def _terms(world: World) -> dict[str, Any]:
    due = world.clock.now() + timedelta(days=2)
    return {
        "favours": BILLING.agent_id,
        "description": "billing keeps the slot; audit runs after 02:00",
        "actions_required": [
            {"agent_id": AUDIT.agent_id, "action": "release the GPU reservation", "deadline": due}
        ],
    }


def _vote(world: World, members: tuple[str, ...], votes: tuple[VoteChoice, ...]) -> None:
    arbitration = world.tiers.arbitration
    for agent_id, choice in zip(members, votes, strict=True):
        arbitration.vote(DISPUTE, world.keys[agent_id], choice, f"{agent_id}: {choice}")
    for agent_id, choice in zip(members, votes, strict=True):
        seated = arbitration.panel(DISPUTE)
        assert seated is not None
        pending = seated.pending_resolution
        signed = {s.agent_id for s in pending.signatures} if pending else set()
        if pending is not None and choice == "approve" and agent_id not in signed:
            arbitration.sign_resolution(DISPUTE, world.keys[agent_id])


def test_r14_r19_a_member_proposes_the_resolution_and_the_votes_bind_its_hash(
    world: World,
) -> None:
    formation = _seat(world)
    first = formation.member_ids[0]
    asked = world.tiers.arbitration.propose(DISPUTE, world.keys[first], **_terms(world))
    assert asked.proposal.proposed_by == first
    assert asked.proposal.actions_required[0].agent_id == AUDIT.agent_id
    # the compliance deadline defaults to the last action's deadline
    assert asked.proposal.compliance_deadline == asked.proposal.actions_required[0].deadline
    (step,) = [
        e.record
        for e in world.ledger.tail(100)
        if e.event_type == "dispute_negotiation_proposal" and e.record["step"] == "panel_proposal"
    ]
    assert (step["agent_id"], step["resolution_hash"]) == (first, asked.resolution_hash)
    signed = {k: v for k, v in step.items() if k not in ("party_signature", "actor")}
    signed.pop("dispute_id")
    verify_record(
        {"dispute_id": DISPUTE, **signed},
        RecordSignature.model_validate(step["party_signature"]),
        world.keys[first].public_key,
    )  # signed with the member's own arbitrator key
    vote = world.tiers.arbitration.vote(DISPUTE, world.keys[first], "approve", "fair")
    assert vote.resolution_hash == asked.resolution_hash


def test_r14_the_hash_covers_the_actions(world: World) -> None:
    formation = _seat(world)
    terms = _terms(world)
    asked = world.tiers.arbitration.propose(DISPUTE, world.keys[formation.member_ids[0]], **terms)
    other = {**terms, "actions_required": [{**terms["actions_required"][0], "action": "nothing"}]}
    changed = world.tiers.arbitration.propose(DISPUTE, world.keys[formation.member_ids[0]], **other)
    assert asked.resolution_hash != changed.resolution_hash


def test_r14_a_non_member_cannot_propose(world: World) -> None:
    formation = _seat(world)
    outsider = next(a for a in POOL_IDS if a not in formation.member_ids)
    with pytest.raises(AccordError) as refused:
        world.tiers.arbitration.propose(DISPUTE, world.keys[outsider], **_terms(world))
    assert refused.value.context["requirement"] == "R14"


def test_r14_the_proposal_is_settled_once_a_member_voted(world: World) -> None:
    formation = _seat(world)
    first = formation.member_ids[0]
    world.tiers.arbitration.vote(DISPUTE, world.keys[first], "approve", "fine as seated")
    with pytest.raises(AccordError) as refused:
        world.tiers.arbitration.propose(DISPUTE, world.keys[first], **_terms(world))
    assert (refused.value.code, refused.value.context["requirement"]) == (
        "panels.voting_started",
        "R14",
    )


def test_r14_a_proposal_after_the_voting_deadline_is_refused(world: World) -> None:
    formation = _seat(world)
    terms = _terms(world)
    at(world.clock, formation.vote_deadline + timedelta(microseconds=1))
    with pytest.raises(AccordError) as refused:
        world.tiers.arbitration.propose(DISPUTE, world.keys[formation.member_ids[0]], **terms)
    assert refused.value.context["requirement"] == "R4"


def test_r14_a_vote_on_another_proposal_hash_is_refused(world: World) -> None:
    formation = _seat(world)
    first = formation.member_ids[0]
    before = world.tiers.arbitration.panel(DISPUTE)
    assert before is not None
    world.tiers.arbitration.propose(DISPUTE, world.keys[first], **_terms(world))
    after = world.tiers.arbitration.panel(DISPUTE)
    assert after is not None
    stale = cast_vote(
        dispute_id=DISPUTE,
        panel_id=formation.panel_id,
        agent_id=first,
        vote="approve",
        resolution_hash=before.question.resolution_hash,
        reasoning="on the old text",
        at=world.clock.now(),
        signer=world.keys[first],
    )
    with pytest.raises(PanelRefused) as refused:
        after.ballot.cast(
            stale, member_keys={first: world.keys[first].public_key}, now=world.clock.now()
        )
    assert (refused.value.code, refused.value.context["requirement"]) == (
        "panels.wrong_resolution",
        "R14",
    )


def test_r20_an_action_owed_by_a_non_party_or_already_due_is_refused(world: World) -> None:
    formation = _seat(world)
    member = world.keys[formation.member_ids[0]]
    terms = _terms(world)
    stranger = {**terms["actions_required"][0], "agent_id": "agent:stranger"}
    with pytest.raises(AccordError) as not_a_party:
        world.tiers.arbitration.propose(
            DISPUTE, member, **{**terms, "actions_required": [stranger]}
        )
    assert (not_a_party.value.code, not_a_party.value.context["requirement"]) == (
        "compliance.not_a_party",
        "R20",
    )
    overdue = {**terms["actions_required"][0], "deadline": world.clock.now()}
    with pytest.raises(AccordError) as late:
        world.tiers.arbitration.propose(DISPUTE, member, **{**terms, "actions_required": [overdue]})
    assert late.value.context["requirement"] == "R20"


def test_r25_a_departure_from_precedent_needs_its_reasoning(world: World) -> None:
    formation = _seat(world)
    departed = {
        "jurisprudence_id": "jur:0197aaaa-0000-7000-8000-0000000000ff",
        "applicability": "departed",
    }
    with pytest.raises(AccordError) as refused:
        world.tiers.arbitration.propose(
            DISPUTE,
            world.keys[formation.member_ids[0]],
            **_terms(world),
            precedents_applied=[departed],
        )
    assert refused.value.context["requirement"] == "R25"


def test_r15_r19_r20_a_binding_resolution_carries_the_proposals_actions(world: World) -> None:
    formation = _seat(world)
    terms = _terms(world)
    world.tiers.arbitration.propose(DISPUTE, world.keys[formation.member_ids[0]], **terms)
    _vote(world, formation.member_ids, ("approve", "approve", "dissent"))
    resolution = world.desk.resolutions[DISPUTE]
    assert resolution.resolution_type.value == "binding_resolution"
    assert resolution.outcome.description == terms["description"]
    (action,) = resolution.outcome.actions_required
    assert (action.agent_id, action.action) == (AUDIT.agent_id, "release the GPU reservation")
    assert action.deadline == isoformat(terms["actions_required"][0]["deadline"])
    assert resolution.outcome.compliance_deadline == action.deadline


def test_r15_a_recommended_resolution_waits_until_every_party_accepts(
    db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    world = World(db, ledger, frozen_clock, arbitrators=pool_settings(mode="advisory"))
    formation = _seat(world)
    _vote(world, formation.member_ids, ("approve", "approve", "approve"))
    assert world.dispute().status == "arbitrating"
    assert "arbitration_resolution_recommended" in world.event_types()
    after_one = world.tiers.arbitration.accept_recommendation(DISPUTE, world.keys[BILLING.agent_id])
    assert after_one.accepted_by == (BILLING.agent_id,)
    assert world.dispute().status == "arbitrating"
    with pytest.raises(AccordError) as twice:
        world.tiers.arbitration.accept_recommendation(DISPUTE, world.keys[BILLING.agent_id])
    assert twice.value.code == "panels.already_accepted"
    world.tiers.arbitration.accept_recommendation(DISPUTE, world.keys[AUDIT.agent_id])
    assert world.dispute().status == "resolved"
    resolution = world.desk.resolutions[DISPUTE]
    assert resolution.resolution_type.value == "recommended_resolution"
    seated = world.tiers.arbitration.panel(DISPUTE)
    assert seated is not None
    assert seated.recommendation is None


def test_r15_a_binding_panel_leaves_nothing_to_accept_and_a_non_party_cannot(
    world: World,
) -> None:
    _seat(world)
    with pytest.raises(AccordError) as nothing:
        world.tiers.arbitration.accept_recommendation(DISPUTE, world.keys[BILLING.agent_id])
    assert (nothing.value.code, nothing.value.context["requirement"]) == (
        "panels.nothing_to_accept",
        "R15",
    )
    stranger = seed("stranger")
    world.ledger.register_key(stranger.public_key, "agent", "agent:stranger")
    with pytest.raises(AccordError) as outsider:
        world.tiers.arbitration.accept_recommendation(DISPUTE, stranger)
    assert (outsider.value.code, outsider.value.context["requirement"]) == (
        "panels.not_a_party",
        "R15",
    )
