"""Tier 1 on a persisted dispute (R7, R8, R9): each step signed by the party's agent key,
stored with its ledger event in one transaction; an agreement resolves the dispute."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from accord.conflicts import Tier
from accord.crypto import verify_record
from accord.dcp07.negotiation import NegotiationRefused, commitment
from accord.dcp07.signing import verify_resolution
from accord.disputes.tiers import UnknownActor
from accord.disputes.tiers.negotiating import PROPOSAL_EVENT
from accord.errors import AccordError, SignatureInvalid
from accord.store.tables import dispute_coin_steps, dispute_negotiation_steps

from ._world import AUDIT, BILLING, DISPUTE, World, at, seed

EVIDENCE = "sha256:" + "cd" * 32


def _rows(world: World) -> int:
    with world.db.read() as conn:
        return int(
            conn.execute(select(func.count()).select_from(dispute_negotiation_steps)).scalar_one()
        )


def test_r07_a_proposal_every_party_accepts_resolves_the_dispute(world: World) -> None:
    world.open()
    negotiation = world.tiers.negotiation
    proposal = negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "billing runs first")
    step = negotiation.accept(DISPUTE, world.keys[AUDIT.agent_id], proposal.proposal_id)

    resolution = step.resolution
    assert resolution is not None
    assert resolution.resolution_level is Tier.DIRECT_NEGOTIATION
    assert resolution.resolution_type.value == "binding_resolution"
    assert resolution.outcome.description == "billing runs first"
    parties = (BILLING.agent_id, AUDIT.agent_id)
    keys = {a: world.keys[a].public_key for a in parties}
    verify_resolution(resolution, keys, required_signers=parties)
    assert [s.agent_id for s in resolution.signatures] == list(parties)
    assert world.dispute().status == "resolved"
    assert world.desk.resolutions[DISPUTE] == resolution
    stored = negotiation.negotiation(DISPUTE)  # still readable once resolved
    assert stored.agreement is not None
    assert stored.agreement.accepted_by == (BILLING.agent_id, AUDIT.agent_id)
    assert world.event_types()[-3:] == [
        "dispute_negotiation_proposal",
        "dispute_negotiation_proposal",
        "dispute_resolved",
    ]


def test_r07_the_first_step_moves_an_open_dispute_to_negotiating(world: World) -> None:
    world.open()
    world.tiers.negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "share the GPU")
    assert world.dispute().status == "negotiating"


def test_r07_each_step_carries_the_party_signature_and_survives_a_reload(world: World) -> None:
    world.open()
    negotiation = world.tiers.negotiation
    first = negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "billing first")
    negotiation.counter_evidence(
        DISPUTE,
        world.keys[AUDIT.agent_id],
        content_hash=EVIDENCE,
        description="the audit deadline is statutory",
        answers=first.proposal_id,
    )
    counter = negotiation.propose(
        DISPUTE, world.keys[AUDIT.agent_id], "audit first", responds_to=first.proposal_id
    )

    stored = negotiation.negotiation(DISPUTE)
    assert [p.proposal_id for p in stored.proposals] == [first.proposal_id, counter.proposal_id]
    assert stored.counter_evidence[0].content_hash == EVIDENCE
    assert stored.accepted_by(counter.proposal_id) == (AUDIT.agent_id,)
    entry = world.ledger.tail(1)[0]
    record = dict(entry.record)
    signature = record.pop("party_signature")
    record.pop("actor")
    from accord.crypto import RecordSignature

    verify_record(
        record, RecordSignature.model_validate(signature), world.keys[AUDIT.agent_id].public_key
    )


def test_r07_a_key_that_is_no_registered_agent_key_acts_for_nobody(world: World) -> None:
    world.open()
    with pytest.raises(UnknownActor):
        world.tiers.negotiation.propose(DISPUTE, seed("stranger"), "I decide")
    with pytest.raises(UnknownActor):  # an arbitrator key is not an agent key
        world.tiers.negotiation.propose(DISPUTE, world.keys["arb:00"], "I decide")
    assert _rows(world) == 0


def test_r07_a_refused_step_writes_no_row_and_no_ledger_entry(world: World) -> None:
    world.open()
    negotiation = world.tiers.negotiation
    proposal = negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "billing first")
    size = world.ledger.size()
    with pytest.raises(NegotiationRefused) as refused:
        negotiation.accept(DISPUTE, world.keys[BILLING.agent_id], proposal.proposal_id)
    assert refused.value.code == "negotiation.already_accepted"
    assert refused.value.context["requirement"] == "R7"
    with pytest.raises(NegotiationRefused):
        negotiation.accept(DISPUTE, world.keys[AUDIT.agent_id], "prop:unknown")
    assert world.ledger.size() == size
    assert _rows(world) == 2  # the proposal and its proposer's acceptance


def test_r06_a_resolved_dispute_takes_no_further_tier_step_citing_r6(world: World) -> None:
    world.open()
    negotiation = world.tiers.negotiation
    proposal = negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "billing first")
    negotiation.accept(DISPUTE, world.keys[AUDIT.agent_id], proposal.proposal_id)
    with pytest.raises(AccordError) as refused:
        negotiation.propose(DISPUTE, world.keys[AUDIT.agent_id], "again")
    assert refused.value.code == "disputes.not_active"
    assert refused.value.context["requirement"] == "R6"


def test_r07_steps_are_refused_outside_direct_negotiation(world: World) -> None:
    world.open(level=Tier.CONTEXTUAL_ARBITRATION, status="escalated")
    with pytest.raises(AccordError) as refused:
        world.tiers.negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "terms")
    assert refused.value.code == "disputes.wrong_tier"


def test_r07_terms_are_bounded_text(world: World) -> None:
    world.open()
    with pytest.raises(AccordError) as refused:
        world.tiers.negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "x" * 20_001)
    assert refused.value.code == "disputes.bad_text"
    assert refused.value.context["field"] == "terms"


def test_r09_a_step_after_the_tier_deadline_is_refused(world: World) -> None:
    dispute = world.open()
    assert dispute.tier_deadline is not None
    at(world.clock, dispute.tier_deadline + timedelta(microseconds=1))
    with pytest.raises(NegotiationRefused) as refused:
        world.tiers.negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "late")
    assert refused.value.context["requirement"] == "R9"
    assert _rows(world) == 0


def test_r08_the_coin_flip_commits_and_reveals_and_names_a_winner(world: World) -> None:
    world.open()
    negotiation = world.tiers.negotiation
    first = negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "billing first")
    second = negotiation.propose(DISPUTE, world.keys[AUDIT.agent_id], "audit first")
    world.flip(choices={BILLING.agent_id: first.proposal_id, AUDIT.agent_id: second.proposal_id})
    outcome = negotiation.coin_outcome(DISPUTE)
    assert outcome.winner in (BILLING.agent_id, AUDIT.agent_id)
    assert outcome.choice in (first.proposal_id, second.proposal_id)
    assert outcome.forfeited == ()
    with world.db.read() as conn:
        kinds = conn.execute(select(dispute_coin_steps.c.kind)).scalars().all()
    assert sorted(kinds) == ["commit", "commit", "reveal", "reveal"]


def test_r08_a_reveal_that_does_not_match_its_commitment_is_refused(world: World) -> None:
    world.open()
    negotiation = world.tiers.negotiation
    nonce = bytes(range(32))
    made = commitment(DISPUTE, BILLING.agent_id, nonce, "seed")
    negotiation.commit(DISPUTE, world.keys[BILLING.agent_id], made)
    negotiation.commit(
        DISPUTE,
        world.keys[AUDIT.agent_id],
        commitment(DISPUTE, AUDIT.agent_id, bytes(range(1, 33)), "seed"),
    )
    size = world.ledger.size()
    with pytest.raises(NegotiationRefused) as refused:
        negotiation.reveal(DISPUTE, world.keys[BILLING.agent_id], nonce, "other")
    assert refused.value.code == "coin.reveal_mismatch"
    with pytest.raises(NegotiationRefused) as short:
        negotiation.reveal(DISPUTE, world.keys[BILLING.agent_id], nonce[:31], "seed")
    assert short.value.code == "coin.short_nonce"
    assert world.ledger.size() == size


def test_r08_a_party_that_never_reveals_before_the_deadline_forfeits(world: World) -> None:
    world.open()
    negotiation = world.tiers.negotiation
    nonces = {a: hashlib.sha256(a.encode()).digest() for a in (BILLING.agent_id, AUDIT.agent_id)}
    for agent, nonce in nonces.items():
        negotiation.commit(DISPUTE, world.keys[agent], commitment(DISPUTE, agent, nonce, "seed"))
    negotiation.reveal(DISPUTE, world.keys[AUDIT.agent_id], nonces[AUDIT.agent_id], "seed")
    flip = negotiation.coin_flip(DISPUTE)
    assert flip is not None
    with pytest.raises(NegotiationRefused):
        negotiation.coin_outcome(DISPUTE)  # billing may still reveal
    at(world.clock, flip.reveal_deadline + timedelta(microseconds=1))
    with pytest.raises(NegotiationRefused) as late:
        negotiation.reveal(DISPUTE, world.keys[BILLING.agent_id], nonces[BILLING.agent_id], "seed")
    assert late.value.code == "coin.reveal_closed"
    outcome = negotiation.coin_outcome(DISPUTE)
    assert outcome.winner == AUDIT.agent_id
    assert outcome.forfeited == (BILLING.agent_id,)


def test_r07_a_revoked_agent_key_acts_for_nobody(world: World) -> None:
    world.open()
    key = world.keys[BILLING.agent_id]
    world.ledger.revoke_key(key.kid, "lost laptop")
    with pytest.raises(UnknownActor):
        world.tiers.negotiation.propose(DISPUTE, key, "billing first")
    assert _rows(world) == 0


def test_r07_r44_the_agreement_carries_every_accepting_partys_signature_and_each_is_checked(
    world: World,
) -> None:
    world.open()
    negotiation = world.tiers.negotiation
    proposal = negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "billing runs first")
    step = negotiation.accept(DISPUTE, world.keys[AUDIT.agent_id], proposal.proposal_id)
    resolution = step.resolution
    assert resolution is not None
    parties = (BILLING.agent_id, AUDIT.agent_id)
    keys = {a: world.keys[a].public_key for a in parties}
    acceptances = [e for e in world.ledger.tail(1000) if e.event_type == PROPOSAL_EVENT]
    carried = [e.record["resolution_signature"] for e in acceptances]
    assert carried == [s.model_dump(mode="json") for s in resolution.signatures]

    only_last = resolution.model_copy(update={"signatures": resolution.signatures[1:]})
    with pytest.raises(SignatureInvalid) as missing:
        verify_resolution(only_last, keys, required_signers=parties)
    assert missing.value.context["missing"] == [BILLING.agent_id]
    first, second = resolution.signatures
    swapped = resolution.model_copy(
        update={
            "signatures": (
                first.model_copy(update={"agent_id": AUDIT.agent_id}),
                second.model_copy(update={"agent_id": BILLING.agent_id}),
            )
        }
    )
    with pytest.raises(SignatureInvalid):
        verify_resolution(swapped, keys, required_signers=parties)
