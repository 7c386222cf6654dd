"""``Disputes.verify_resolution``: a stored §6 record checked against the keys the ledger
registered — every party's agent key at tier 1, M approving members' arbitrator keys at tier
2, every party's principal's reviewer key at tier 3 (R19, R36, R44)."""

from __future__ import annotations

import pytest

from accord.clock import FrozenClock
from accord.disputes.tiers import TierDispute
from accord.disputes.tiers.resolution_check import check_resolution
from accord.disputes.tiers.stored_desk import StoredDisputeDesk
from accord.errors import AccordError, SignatureInvalid
from accord.ledger import Ledger
from accord.store import Database

from ._world import AUDIT, BILLING, pool_settings
from .test_stored_desk import ANA, BO, Stage, stage_reviewer


@pytest.fixture
def stage(db: Database, ledger: Ledger, frozen_clock: FrozenClock) -> Stage:
    return Stage(db, ledger, frozen_clock, pool_settings())


def _tier_dispute(stage: Stage, dispute_id: str) -> TierDispute:
    with stage.db.read() as conn:
        return StoredDisputeDesk(stage.disputes).load_within(conn, dispute_id)


def _negotiated(stage: Stage) -> str:
    dispute_id = stage.open()
    negotiation = stage.disputes.tiers.negotiation
    proposal = negotiation.propose(dispute_id, stage.keys[BILLING.agent_id], "billing first")
    negotiation.accept(dispute_id, stage.keys[AUDIT.agent_id], proposal.proposal_id)
    return dispute_id


def test_r44_a_negotiated_resolution_verifies_with_every_partys_registered_agent_key(
    stage: Stage,
) -> None:
    dispute_id = _negotiated(stage)
    checked = stage.disputes.verify_resolution(dispute_id)
    assert {s.agent_id for s in checked.signatures} == {BILLING.agent_id, AUDIT.agent_id}


def test_r44_a_negotiated_resolution_missing_a_partys_signature_fails(stage: Stage) -> None:
    dispute_id = _negotiated(stage)
    resolution = stage.disputes.verify_resolution(dispute_id)
    assert stage.disputes.show(dispute_id).resolution == resolution
    trimmed = resolution.model_copy(update={"signatures": resolution.signatures[1:]})
    tier_dispute = _tier_dispute(stage, dispute_id)
    with pytest.raises(SignatureInvalid) as missing:
        check_resolution(trimmed, tier_dispute, stage.ledger.key_registry())
    assert missing.value.context["missing"] == [BILLING.agent_id]


def test_r36_a_signature_made_with_another_role_key_fails(stage: Stage) -> None:
    dispute_id = _negotiated(stage)
    resolution = stage.disputes.verify_resolution(dispute_id)
    first = resolution.signatures[0]
    foreign = resolution.model_copy(
        update={"signatures": (first.model_copy(update={"kid": stage.keys[ANA].kid}),
                               *resolution.signatures[1:])}
    )  # fmt: skip
    tier_dispute = _tier_dispute(stage, dispute_id)
    with pytest.raises(SignatureInvalid) as wrong:
        check_resolution(foreign, tier_dispute, stage.ledger.key_registry())
    assert wrong.value.context["kid"] == stage.keys[ANA].kid


def test_r44_a_panel_and_an_appeal_resolution_verify_against_their_signers_keys(
    stage: Stage,
) -> None:
    dispute_id = stage.open()
    stage.disputes.escalate(dispute_id, by=BILLING.agent_id)
    members = stage.seat(dispute_id)
    arbitration = stage.disputes.tiers.arbitration
    for agent in members:
        arbitration.vote(dispute_id, stage.keys[agent], "approve", f"{agent} agrees")
    seated = arbitration.panel(dispute_id)
    assert seated is not None
    if seated.pending_resolution is not None:
        arbitration.sign_resolution(dispute_id, stage.keys[members[0]])
    assert stage.disputes.verify_resolution(dispute_id).panel is not None

    appealed = stage.open()
    stage.disputes.escalate(appealed, by=AUDIT.agent_id, to_tier="human_appeal")
    reviewers = [stage_reviewer(stage, p) for p in (ANA, BO)]
    stage.disputes.tiers.appeal.decide_appeal(
        appealed, reviewers, outcome="share the GPU", reasoning="both need it"
    )
    checked = stage.disputes.verify_resolution(appealed)
    assert {s.agent_id for s in checked.signatures} == {ANA, BO}


def test_r19_an_unresolved_dispute_has_no_resolution_to_verify(stage: Stage) -> None:
    dispute_id = stage.open()
    with pytest.raises(AccordError) as refused:
        stage.disputes.verify_resolution(dispute_id)
    assert refused.value.code == "disputes.not_resolved"
