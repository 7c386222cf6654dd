"""Tier 3 on a persisted dispute (R16): the parties' responsible principals decide together,
each signing the §6 record with a registered reviewer key; the decision is final."""

from __future__ import annotations

import pytest

from accord.approvals import Principal, Reviewer
from accord.conflicts import Tier
from accord.disputes.dcp.signing import verify_resolution
from accord.errors import AccordError

from ._world import DISPUTE, World, seed

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
