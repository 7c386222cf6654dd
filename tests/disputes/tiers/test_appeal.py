"""Tier 3 on a persisted dispute (R16): the parties' responsible principals decide together,
each signing the §6 record with a registered reviewer key; the decision is final."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accord.approvals import Principal, Reviewer
from accord.conflicts import Tier
from accord.crypto import Ed25519Signer
from accord.dcp07.parties import Party
from accord.dcp07.signing import verify_resolution
from accord.disputes.tiers import AppealProposal, TierDispute
from accord.errors import AccordError
from accord.ledger.trust import NO_END

from ._world import AUDIT, BILLING, DISPUTE, World, seed

ANA, BO = "human:ana", "human:bo"


def test_r16_the_responsible_principals_decide_finally_with_their_signatures(
    world: World,
) -> None:
    world.open(level=Tier.HUMAN_APPEAL, status="appealing")
    record = world.tiers.appeal.decide_appeal(
        DISPUTE,
        [world.reviewer(ANA), world.reviewer(BO)],
        outcome="audit runs first; billing gets the next slot",
        reasoning="the audit deadline is statutory",
    )
    assert record.resolution_level is Tier.HUMAN_APPEAL
    assert record.resolution_type.value == "binding_resolution"
    verify_resolution(
        record,
        {p: world.reviewer_keys[p].public_key for p in (ANA, BO)},
        required_signers=(ANA, BO),
    )
    assert world.dispute().status == "resolved"
    assert world.desk.resolutions[DISPUTE] == record
    with pytest.raises(AccordError) as final:
        world.tiers.appeal.decide_appeal(
            DISPUTE, [world.reviewer(ANA), world.reviewer(BO)], outcome="no", reasoning="again"
        )
    assert final.value.code == "disputes.not_active"
    assert final.value.context["requirement"] == "R6"  # a final status, not an R16 rule


def test_r16_every_responsible_principal_and_only_they_decide(world: World) -> None:
    world.open(level=Tier.HUMAN_APPEAL, status="appealing")
    appeal = world.tiers.appeal
    with pytest.raises(AccordError) as alone:
        appeal.decide_appeal(DISPUTE, [world.reviewer(ANA)], outcome="mine", reasoning="because")
    assert alone.value.code == "appeal.wrong_principals"
    assert alone.value.context["requirement"] == "R16"
    outsider = Reviewer(Principal(principal_id="human:eve"), seed("eve"))
    with pytest.raises(AccordError) as stranger:
        appeal.decide_appeal(
            DISPUTE,
            [world.reviewer(ANA), world.reviewer(BO), outsider],
            outcome="mine",
            reasoning="because",
        )
    assert stranger.value.code == "appeal.wrong_principals"
    unsigned = Reviewer(Principal(principal_id=BO), None)
    with pytest.raises(AccordError) as os_login:
        appeal.decide_appeal(
            DISPUTE, [world.reviewer(ANA), unsigned], outcome="mine", reasoning="because"
        )
    assert os_login.value.code == "appeal.unsigned"
    assert world.dispute().status == "appealing"


def test_r16_an_appeal_decision_waits_for_the_human_appeal_tier(world: World) -> None:
    world.open()
    with pytest.raises(AccordError) as refused:
        world.tiers.appeal.decide_appeal(
            DISPUTE, [world.reviewer(ANA), world.reviewer(BO)], outcome="x", reasoning="y"
        )
    assert refused.value.code == "disputes.wrong_tier"


# -- deciding in turn, each principal with only its own key ---------------------------------


def test_r16_principals_decide_in_turn_and_the_last_signature_resolves_finally(
    world: World,
) -> None:
    world.open(level=Tier.HUMAN_APPEAL, status="appealing")
    appeal = world.tiers.appeal
    assert appeal.pending_appeal(DISPUTE) is None
    proposed = appeal.propose_appeal(
        DISPUTE, world.reviewer_keys[ANA], outcome="audit runs first", reasoning="statutory"
    )
    assert (proposed.proposed_by, proposed.signed_by, proposed.outstanding) == (ANA, (ANA,), (BO,))
    assert proposed.resolution is None
    assert appeal.pending_appeal(DISPUTE) == proposed
    assert world.dispute().status == "appealing"
    signed = appeal.sign_appeal(DISPUTE, world.reviewer_keys[BO], proposed.proposal_id)
    assert signed.outstanding == ()
    assert signed.resolution is not None
    record = signed.resolution
    assert record.resolution_level is Tier.HUMAN_APPEAL
    assert record.outcome.description == "audit runs first"
    verify_resolution(
        record,
        {p: world.reviewer_keys[p].public_key for p in (ANA, BO)},
        required_signers=(ANA, BO),
    )
    assert world.dispute().status == "resolved"
    assert world.desk.resolutions[DISPUTE] == record
    assert appeal.pending_appeal(DISPUTE) is None
    assert world.event_types().count("dispute_negotiation_proposal") == 2


def test_r16_a_different_proposal_replaces_the_pending_one_and_drops_its_signatures(
    world: World,
) -> None:
    world.open(level=Tier.HUMAN_APPEAL, status="appealing")
    appeal = world.tiers.appeal
    first = appeal.propose_appeal(
        DISPUTE, world.reviewer_keys[ANA], outcome="billing first", reasoning="booked first"
    )
    world.clock.advance(timedelta(minutes=1))
    second = appeal.propose_appeal(
        DISPUTE, world.reviewer_keys[BO], outcome="audit first", reasoning="statutory"
    )
    assert second.proposal_id != first.proposal_id
    assert (second.proposed_by, second.signed_by) == (BO, (BO,))
    assert appeal.pending_appeal(DISPUTE) == second
    with pytest.raises(AccordError) as stale:
        appeal.sign_appeal(DISPUTE, world.reviewer_keys[ANA], first.proposal_id)
    assert (stale.value.code, stale.value.context["requirement"]) == ("appeal.not_pending", "R16")
    assert stale.value.context["pending"] == second.proposal_id
    done = appeal.sign_appeal(DISPUTE, world.reviewer_keys[ANA], second.proposal_id)
    assert done.resolution is not None
    assert done.resolution.outcome.description == "audit first"


def test_r16_signing_in_turn_refuses_strangers_second_signatures_and_nothing_pending(
    world: World,
) -> None:
    world.open(level=Tier.HUMAN_APPEAL, status="appealing")
    appeal = world.tiers.appeal
    eve = seed("reviewer:human:eve")
    world.ledger.register_key(eve.public_key, "reviewer", "human:eve")  # no party's principal
    with pytest.raises(AccordError) as nothing:
        appeal.sign_appeal(DISPUTE, world.reviewer_keys[BO], "res:none")
    assert (nothing.value.code, nothing.value.context["requirement"]) == (
        "appeal.nothing_to_sign",
        "R16",
    )
    with pytest.raises(AccordError) as oversized:
        appeal.sign_appeal(DISPUTE, world.reviewer_keys[BO], "res:" + "x" * 100)
    assert (oversized.value.code, oversized.value.context["field"]) == (
        "appeal.bad_proposal_id",
        "proposal_id",
    )
    with pytest.raises(AccordError) as stranger:
        appeal.propose_appeal(DISPUTE, eve, outcome="mine", reasoning="because")
    assert (stranger.value.code, stranger.value.context["requirement"]) == (
        "appeal.not_responsible",
        "R16",
    )
    proposed = appeal.propose_appeal(
        DISPUTE, world.reviewer_keys[ANA], outcome="share", reasoning="both need it"
    )
    with pytest.raises(AccordError) as outsider:
        appeal.sign_appeal(DISPUTE, eve, proposed.proposal_id)
    assert outsider.value.code == "appeal.not_responsible"
    with pytest.raises(AccordError) as twice:
        appeal.sign_appeal(DISPUTE, world.reviewer_keys[ANA], proposed.proposal_id)
    assert (twice.value.code, twice.value.context["requirement"]) == (
        "appeal.already_signed",
        "R16",
    )
    with pytest.raises(AccordError) as agent_key:
        appeal.sign_appeal(DISPUTE, world.keys[BILLING.agent_id], proposed.proposal_id)
    assert (agent_key.value.code, agent_key.value.context["requirement"]) == (
        "appeal.unsigned",
        "R16",
    )
    assert appeal.pending_appeal(DISPUTE) == proposed
    assert world.dispute().status == "appealing"


def test_r16_proposing_or_signing_waits_for_the_human_appeal_tier(world: World) -> None:
    world.open()
    with pytest.raises(AccordError) as early:
        world.tiers.appeal.propose_appeal(
            DISPUTE, world.reviewer_keys[ANA], outcome="x", reasoning="y"
        )
    assert (early.value.code, early.value.context["requirement"]) == ("disputes.wrong_tier", "R16")


def test_r16_a_principal_responsible_for_every_party_decides_by_proposing(
    world: World,
) -> None:
    world.open(level=Tier.HUMAN_APPEAL, status="appealing")
    solo = TierDispute.model_validate(
        {
            **world.dispute().model_dump(),
            "parties": [BILLING, AUDIT.model_copy(update={"principal_id": ANA})],
        }
    )
    world.desk.add(solo)
    done = world.tiers.appeal.propose_appeal(
        DISPUTE, world.reviewer_keys[ANA], outcome="billing first", reasoning="booked first"
    )
    assert done.responsible == (ANA,)
    assert done.resolution is not None
    assert world.dispute().status == "resolved"


def test_r16_deciding_at_once_clears_a_pending_proposal(world: World) -> None:
    world.open(level=Tier.HUMAN_APPEAL, status="appealing")
    appeal = world.tiers.appeal
    appeal.propose_appeal(DISPUTE, world.reviewer_keys[ANA], outcome="a", reasoning="b")
    appeal.decide_appeal(
        DISPUTE, [world.reviewer(ANA), world.reviewer(BO)], outcome="c", reasoning="d"
    )
    assert appeal.pending_appeal(DISPUTE) is None
    assert world.desk.resolutions[DISPUTE].outcome.description == "c"


CY = "human:cy"
OPS = Party(agent_id="agent:ops", principal_id=CY, organization_id="initech")
_STEPS = st.lists(
    st.tuples(st.sampled_from(("propose", "sign")), st.sampled_from((ANA, BO, CY))),
    min_size=1,
    max_size=8,
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=_STEPS)
def test_r16_in_any_order_the_dispute_resolves_exactly_when_every_principal_signed_one_draft(
    world: World, steps: list[tuple[str, str]]
) -> None:
    dispute_id = f"disp:0197aaaa-0000-7000-8000-{next(_NUMBERS):012d}"
    world.open(level=Tier.HUMAN_APPEAL, status="appealing", dispute_id=dispute_id)
    three = world.dispute(dispute_id).model_copy(update={"parties": (BILLING, AUDIT, OPS)})
    world.desk.add(three)
    keys = {**world.reviewer_keys, CY: _cy_key(world)}
    appeal = world.tiers.appeal
    signed: set[str] = set()
    outcome: str | None = None
    for n, (kind, principal) in enumerate(steps):
        pending = appeal.pending_appeal(dispute_id)
        if kind == "propose":
            outcome = f"decision {n}"
            done = appeal.propose_appeal(
                dispute_id, keys[principal], outcome=outcome, reasoning="why"
            )
            signed = {principal}
        elif pending is None or principal in signed:
            with pytest.raises(AccordError) as refused:
                appeal.sign_appeal(dispute_id, keys[principal], pending_id(pending))
            assert refused.value.context["requirement"] == "R16"
            continue
        else:
            done = appeal.sign_appeal(dispute_id, keys[principal], pending.proposal_id)
            signed.add(principal)
        assert set(done.signed_by) == signed
        if signed == {ANA, BO, CY}:
            assert done.resolution is not None
            assert done.resolution.outcome.description == outcome
            assert world.desk.resolutions[dispute_id] == done.resolution
            return
        assert done.resolution is None
        assert dispute_id not in world.desk.resolutions
    assert world.dispute(dispute_id).status == "appealing"


_NUMBERS = itertools.count(100)


def pending_id(pending: AppealProposal | None) -> str:
    return "res:none" if pending is None else pending.proposal_id


def _cy_key(world: World) -> Ed25519Signer:
    key = seed("reviewer:human:cy")
    if world.ledger.key_registry().reviewer_at(key.kid, NO_END) is None:
        world.ledger.register_key(key.public_key, "reviewer", CY)
    return key
