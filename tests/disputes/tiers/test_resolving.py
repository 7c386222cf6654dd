"""A dispute resolved at any tier becomes a jurisprudence bundle in the same transaction (R23):
a bundle that cannot be written leaves the dispute unresolved."""

from __future__ import annotations

import pytest
from sqlalchemy import Connection

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.errors import StoreError
from accord.ledger import Ledger
from accord.precedents import Precedents
from accord.precedents.bundle import BundleDraft, JurisprudenceBundle
from accord.precedents.search import PrecedentSearch
from accord.precedents.store import PrecedentStore
from accord.store import Database

from ._world import AUDIT, BILLING, DISPUTE, World


def test_r23_a_negotiated_resolution_is_filed_as_a_precedent(
    db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    precedents = Precedents(
        PrecedentStore(db, frozen_clock), PrecedentSearch(db), Ed25519Signer.from_seed(b"p" * 32)
    )
    world = World(db, ledger, frozen_clock, precedents=precedents)
    world.open()
    negotiation = world.tiers.negotiation
    proposal = negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "billing runs first")
    step = negotiation.accept(DISPUTE, world.keys[AUDIT.agent_id], proposal.proposal_id)
    assert step.resolution is not None

    found = precedents.search("resource_conflict")
    assert len(found) == 1
    bundle = found[0].bundle
    assert bundle.dispute_id == DISPUTE
    assert bundle.resolution_id == step.resolution.resolution_id
    assert bundle.authority_level.value == "direct_negotiation"
    assert bundle.summary.holding == "billing runs first"


def test_r23_a_refused_step_files_no_precedent(
    db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    precedents = Precedents(
        PrecedentStore(db, frozen_clock), PrecedentSearch(db), Ed25519Signer.from_seed(b"p" * 32)
    )
    world = World(db, ledger, frozen_clock, precedents=precedents)
    world.open()
    negotiation = world.tiers.negotiation
    negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "billing runs first")
    assert precedents.count() == 0


class BrokenRegistry:
    """A precedent registry whose write fails after the resolution's rows are in."""

    def __init__(self) -> None:
        self.tried = 0

    def add_within(self, conn: Connection, draft: BundleDraft) -> JurisprudenceBundle:
        self.tried += 1
        raise StoreError("the registry's disk is full", code="store.unavailable")


def test_r23_a_bundle_that_cannot_be_written_leaves_the_dispute_unresolved(
    db: Database, ledger: Ledger, frozen_clock: FrozenClock
) -> None:
    registry = BrokenRegistry()
    world = World(db, ledger, frozen_clock, precedents=registry)
    world.open()
    negotiation = world.tiers.negotiation
    proposal = negotiation.propose(DISPUTE, world.keys[BILLING.agent_id], "billing runs first")
    size = ledger.size()
    with pytest.raises(StoreError):
        negotiation.accept(DISPUTE, world.keys[AUDIT.agent_id], proposal.proposal_id)
    assert registry.tried == 1
    assert world.dispute().status == "negotiating"
    assert DISPUTE not in world.desk.resolutions
    assert ledger.size() == size  # neither the acceptance nor dispute_resolved was signed in
    assert negotiation.negotiation(DISPUTE).agreement is None
