"""Tier 2 on a persisted dispute (R10–R15, R32, R35, R39): nominations from the configured
pool, eligibility recorded per candidate, a verifiable draw, signed votes, the tally."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from accord.clock import FrozenClock
from accord.conflicts import Tier
from accord.dcp07 import ResolutionRecord, read_record
from accord.dcp07.panels import PanelRefused, VoteChoice, verify_formation
from accord.dcp07.parties import Party
from accord.dcp07.signing import verify_resolution
from accord.disputes.arbitrators import AgentArbitrator
from accord.disputes.tiers import TierDispute
from accord.disputes.tiers.arbitration import PanelEscalation
from accord.errors import AccordError
from accord.ledger import Ledger
from accord.llm import ModelRequest, ScriptedModel
from accord.store import Database

from ._world import AUDIT, BILLING, DISPUTE, POOL_IDS, World, at, pool_settings, seed

QUESTION = "Who keeps the GPU reservation for the nightly batch?"
POSITIONS = {
    BILLING.agent_id: "We booked it first (ticket 12).",
    AUDIT.agent_id: "Audit has a legal deadline.",
}


def _member(agent_id: str, **fields: Any) -> dict[str, Any]:
    return {
        "agent_id": agent_id,
        "principal_id": f"human:{agent_id[4:]}",
        "organization_id": "initech",
        "vitality": 900,
        **fields,
    }


def _seat(world: World, nominees: tuple[str, ...] = POOL_IDS[:4]) -> Any:
    world.open(level=Tier.CONTEXTUAL_ARBITRATION, status="escalated")
    world.flip()
    world.tiers.arbitration.nominate(DISPUTE, world.keys[BILLING.agent_id], nominees[:2])
    world.tiers.arbitration.nominate(DISPUTE, world.keys[AUDIT.agent_id], nominees[2:])
    return world.tiers.arbitration.form_panel(
        DISPUTE,
        question=QUESTION,
        positions=POSITIONS,
        favours=BILLING.agent_id,
        resolution="billing keeps the slot",
    )


def _vote_all(world: World, members: tuple[str, ...], votes: tuple[VoteChoice, ...]) -> None:
    """Every member votes; then the approving members sign the decided record in turn."""
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


def test_r10_parties_nominate_from_the_pool_and_a_panel_of_three_is_seated(world: World) -> None:
    formation = _seat(world)
    assert len(formation.members) == 3
    assert set(formation.member_ids) <= set(POOL_IDS[:4])
    assert {n.nominated_by for n in formation.nominations} == {BILLING.agent_id, AUDIT.agent_id}
    assert world.dispute().status == "arbitrating"
    assert "arbitration_panel_formed" in world.event_types()


def test_r10_a_nominee_outside_the_pool_is_refused(world: World) -> None:
    world.open(level=Tier.CONTEXTUAL_ARBITRATION, status="escalated")
    with pytest.raises(PanelRefused) as refused:
        world.tiers.arbitration.nominate(DISPUTE, world.keys[BILLING.agent_id], ["arb:outsider"])
    assert refused.value.context["requirement"] == "R10"


def test_r10_a_non_party_cannot_nominate(world: World, ledger: Ledger) -> None:
    world.open(level=Tier.CONTEXTUAL_ARBITRATION, status="escalated")
    stranger = seed("stranger")
    ledger.register_key(stranger.public_key, "agent", "agent:stranger")
    with pytest.raises(AccordError) as refused:
        world.tiers.arbitration.nominate(DISPUTE, stranger, ["arb:00"])
    assert refused.value.code == "panels.nominator_not_a_party"


def test_r35_the_panel_is_drawn_from_the_revealed_nonces_and_recomputes(world: World) -> None:
    formation = _seat(world)
    seated = world.tiers.arbitration.panel(DISPUTE)
    assert seated is not None
    assert seated.formation == formation
    verify_formation(seated.formation)  # anyone holding the stored record re-derives the draw
    flip = world.tiers.negotiation.coin_flip(DISPUTE)
    assert flip is not None
    assert seated.formation.selection.seed_nonces == flip.revealed_nonces()


def test_r35_no_panel_before_the_parties_revealed_their_nonces(world: World) -> None:
    world.open(level=Tier.CONTEXTUAL_ARBITRATION, status="escalated")
    world.tiers.arbitration.nominate(DISPUTE, world.keys[BILLING.agent_id], POOL_IDS[:3])
    with pytest.raises(AccordError) as refused:
        world.tiers.arbitration.form_panel(
            DISPUTE, question=QUESTION, positions=POSITIONS, favours=BILLING.agent_id,
            resolution="billing keeps the slot",
        )  # fmt: skip
    assert refused.value.context["requirement"] == "R35"


def test_r11_r12_r13_r32_every_candidates_eligibility_is_recorded(
    db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    extra = [
        _member("arb:weak", vitality=600),
        _member("arb:paused", lifecycle_state="suspended"),
        _member("arb:friend", principal_id="human:ana"),
        _member("arb:chatty"),
        _member("arb:busy"),
    ]
    world = World(db, ledger, frozen_clock, arbitrators=pool_settings(extra_members=extra))
    world.interactions.record("arb:chatty", AUDIT.agent_id, frozen_clock.now() - timedelta(days=29))
    busy = Party(agent_id="arb:busy", principal_id="human:busy", organization_id="initech")
    world.desk.add(
        TierDispute(
            dispute_id="disp:0197aaaa-0000-7000-8000-000000000002",
            dispute_type="resource_conflict",
            severity="low",
            status="negotiating",
            level=Tier.DIRECT_NEGOTIATION,
            parties=(busy, BILLING),
            tier_deadline=frozen_clock.now() + timedelta(hours=4),
            record_hash="sha256:" + "00" * 32,
        )
    )
    formation = _seat(
        world, ("arb:weak", "arb:paused", "arb:friend", "arb:chatty", "arb:busy", *POOL_IDS[:3])
    )
    reasons = {e.agent_id: {r.requirement for r in e.reasons} for e in formation.eligibility}
    assert reasons["arb:weak"] == {"R12"}
    assert reasons["arb:paused"] == {"R13"}
    assert reasons["arb:friend"] == {"R32"}
    assert reasons["arb:chatty"] == {"R32"}
    assert reasons["arb:busy"] == {"R11"}
    assert set(formation.member_ids) == set(POOL_IDS[:3])
    assert len(formation.eligibility) == 8


def test_r10_r16_a_pool_with_fewer_eligible_arbitrators_than_a_panel_escalates_with_the_reason(
    world: World,
) -> None:
    for agent in POOL_IDS[:4]:  # four of six spoke with a party last week (R32)
        world.interactions.record(agent, AUDIT.agent_id, world.clock.now() - timedelta(days=7))
    outcome = _seat(world)
    assert isinstance(outcome, PanelEscalation)
    assert outcome.to_level == "human_appeal"
    assert outcome.eligible == POOL_IDS[4:]
    assert outcome.needed == 3
    assert "only 2 of the pool's 6 arbitrators are eligible" in outcome.reason
    assert (world.dispute().status, world.dispute().level) == ("appealing", Tier.HUMAN_APPEAL)
    assert world.tiers.arbitration.panel(DISPUTE) is None
    escalation = world.ledger.tail(1)[0]
    assert escalation.event_type == "dispute_escalated"
    assert escalation.record["reason"] == outcome.reason
    recorded = {e["agent_id"]: e["eligible"] for e in escalation.record["eligibility"]}
    assert recorded == {a: a in POOL_IDS[4:] for a in POOL_IDS}


def test_r10_too_few_eligible_nominees_are_refused_while_the_pool_still_has_enough(
    world: World,
) -> None:
    for agent in POOL_IDS[:2]:
        world.interactions.record(agent, AUDIT.agent_id, world.clock.now() - timedelta(days=7))
    with pytest.raises(PanelRefused) as refused:
        _seat(world)  # nominees arb:00..03, two of them ineligible; arb:04 and arb:05 are not
    assert (refused.value.code, refused.value.context["requirement"]) == (
        "panels.too_few_eligible",
        "R10",
    )
    assert (world.dispute().status, world.dispute().level) == (
        "escalated",
        Tier.CONTEXTUAL_ARBITRATION,
    )


def test_r14_r15_m_approvals_make_a_binding_resolution(world: World) -> None:
    formation = _seat(world)
    _vote_all(world, formation.member_ids, ("approve", "dissent", "approve"))
    assert world.dispute().status == "resolved"
    resolution = world.desk.resolutions[DISPUTE]
    assert resolution.resolution_level is Tier.CONTEXTUAL_ARBITRATION
    assert resolution.resolution_type.value == "binding_resolution"
    assert resolution.panel is not None
    assert (resolution.panel.votes_for, resolution.panel.votes_against) == (2, 1)
    verify_resolution(resolution, {a: world.keys[a].public_key for a in formation.member_ids})
    assert world.event_types().count("arbitration_vote_cast") == 3
    seated = world.tiers.arbitration.panel(DISPUTE)
    assert seated is not None
    assert seated.decision == "binding_resolution"
    dissenter = formation.member_ids[1]
    assert seated.reasoning[dissenter] == f"{dissenter}: dissent"  # kept permanently (R35)


def test_r15_a_split_decision_escalates_to_human_appeal(world: World) -> None:
    formation = _seat(world)
    _vote_all(world, formation.member_ids, ("dissent", "approve", "dissent"))
    dispute = world.dispute()
    assert (dispute.status, dispute.level) == ("appealing", Tier.HUMAN_APPEAL)
    assert DISPUTE not in world.desk.resolutions
    assert world.event_types()[-1] == "dispute_escalated"


def test_r15_r19_a_split_panel_writes_a_signed_split_decision_record_with_its_escalation(
    world: World,
) -> None:
    formation = _seat(world)
    votes = ("dissent", "approve", "dissent")
    _vote_all(world, formation.member_ids, votes)
    escalation = world.ledger.tail(1)[0]
    assert escalation.event_type == "dispute_escalated"
    record = read_record(ResolutionRecord, escalation.record["split_decision"])
    assert record.resolution_type.value == "split_decision"
    assert record.dispute_id == DISPUTE
    assert record.resolution_level is Tier.CONTEXTUAL_ARBITRATION
    assert record.panel is not None
    assert [(m.agent_id, m.vote.value) for m in record.panel.members] == list(
        zip(formation.member_ids, votes, strict=True)
    )
    assert (record.panel.votes_for, record.panel.votes_against) == (1, 2)
    assert not record.panel.agreed
    # signed by the member whose vote closed the ballot, under DCP-DISPUTE-SIG-v2 (R36)
    last = formation.member_ids[-1]
    assert [s.agent_id for s in record.signatures] == [last]
    assert record.signatures[0].domain_sep == "DCP-DISPUTE-SIG-v2"
    keys = {a: world.keys[a].public_key for a in formation.member_ids}
    assert verify_resolution(record, keys, required_signers=(last,)) == record
    assert (world.dispute().status, world.dispute().level) == ("appealing", Tier.HUMAN_APPEAL)


def test_r14_a_non_member_a_second_vote_and_a_late_vote_are_refused(world: World) -> None:
    formation = _seat(world)
    outsider = next(a for a in POOL_IDS if a not in formation.member_ids)
    arbitration = world.tiers.arbitration
    with pytest.raises(PanelRefused) as stranger:
        arbitration.vote(DISPUTE, world.keys[outsider], "approve", "I was not drawn")
    assert (stranger.value.code, stranger.value.context["requirement"]) == (
        "panels.not_a_member",
        "R14",
    )
    first = formation.member_ids[0]
    arbitration.vote(DISPUTE, world.keys[first], "approve", "documented booking")
    with pytest.raises(PanelRefused) as twice:
        arbitration.vote(DISPUTE, world.keys[first], "dissent", "changed my mind")
    assert twice.value.code == "panels.second_vote"
    assert twice.value.context["requirement"] == "R14"
    at(world.clock, formation.vote_deadline + timedelta(microseconds=1))
    with pytest.raises(PanelRefused) as late:
        arbitration.vote(DISPUTE, world.keys[formation.member_ids[1]], "approve", "late")
    assert (late.value.code, late.value.context["requirement"]) == (
        "panels.vote_after_deadline",
        "R4",
    )
    assert world.event_types().count("arbitration_vote_cast") == 1


def test_r14_after_the_deadline_a_member_closes_the_panel_and_absentees_count_neither_way(
    world: World,
) -> None:
    formation = _seat(world)
    a, b, _ = formation.member_ids
    world.tiers.arbitration.vote(DISPUTE, world.keys[a], "approve", "yes")
    world.tiers.arbitration.vote(DISPUTE, world.keys[b], "approve", "yes")
    with pytest.raises(PanelRefused) as early:
        world.tiers.arbitration.tally(DISPUTE, world.keys[a])
    assert early.value.code == "panels.tally_too_early"
    at(world.clock, formation.vote_deadline + timedelta(microseconds=1))
    counted = world.tiers.arbitration.tally(DISPUTE, world.keys[a])
    assert counted.decision.value == "binding_resolution"
    assert len(counted.absent) == 1
    assert world.dispute().status == "arbitrating"  # one approving signature of the two needed
    world.tiers.arbitration.sign_resolution(DISPUTE, world.keys[b])
    assert world.dispute().status == "resolved"
    with pytest.raises(AccordError) as again:
        world.tiers.arbitration.tally(DISPUTE, world.keys[a])
    assert again.value.code == "disputes.not_active"
    assert again.value.context["requirement"] == "R6"


def test_r39_the_configured_threshold_seats_and_decides_three_of_five(
    db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    world = World(db, ledger, frozen_clock, arbitrators=pool_settings(threshold={"m": 3, "n": 5}))
    formation = _seat(world, POOL_IDS)
    assert (formation.threshold.m, formation.threshold.n) == (3, 5)
    _vote_all(world, formation.member_ids, ("approve", "approve", "dissent", "dissent", "approve"))
    resolution = world.desk.resolutions[DISPUTE]
    assert resolution.panel is not None
    assert resolution.panel.threshold.m == 3


def test_r15_an_advisory_panel_recommends(
    db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    world = World(db, ledger, frozen_clock, arbitrators=pool_settings(mode="advisory"))
    formation = _seat(world)
    _vote_all(world, formation.member_ids, ("approve", "approve", "approve"))
    seated = world.tiers.arbitration.panel(DISPUTE)
    assert seated is not None
    assert seated.recommendation is not None
    assert seated.recommendation.resolution_type.value == "recommended_resolution"
    assert DISPUTE not in world.desk.resolutions  # the parties accept it first (R15)


def _judge(party: str) -> Any:
    """A scripted judge that names ``party`` whatever letter it was shown under."""

    def answer(request: ModelRequest) -> dict[str, Any]:
        shown = request.messages[-1].content
        billing_first = shown.index("ticket 12") < shown.index("legal deadline")
        letter = "A" if (party == BILLING.agent_id) == billing_first else "B"
        return {"winner": letter, "reasoning": "the booking is documented", "confidence": 0.8}

    return answer


def test_r14_agent_arbitrators_vote_through_the_model_port(world: World) -> None:
    formation = _seat(world)
    arbitrators = [
        AgentArbitrator(a, ScriptedModel([_judge(BILLING.agent_id)] * 2), world.keys[a])
        for a in formation.member_ids
    ]
    deliberation = asyncio.run(world.tiers.arbitration.deliberate(DISPUTE, arbitrators))
    assert [v.vote.vote for v in deliberation.votes] == ["approve"] * 3
    resolution = world.desk.resolutions[DISPUTE]
    verify_resolution(resolution, {a: world.keys[a].public_key for a in formation.member_ids})
    assert len(resolution.signatures) == 3


def test_r14_the_resolution_put_to_the_panel_favours_a_party(world: World) -> None:
    world.open(level=Tier.CONTEXTUAL_ARBITRATION, status="escalated")
    world.flip()
    world.tiers.arbitration.nominate(DISPUTE, world.keys[BILLING.agent_id], POOL_IDS[:3])
    with pytest.raises(AccordError) as refused:
        world.tiers.arbitration.form_panel(
            DISPUTE, question=QUESTION, positions=POSITIONS, favours="agent:nobody",
            resolution="nobody wins",
        )  # fmt: skip
    assert refused.value.context["requirement"] == "R14"
    assert world.tiers.arbitration.panel(DISPUTE) is None
