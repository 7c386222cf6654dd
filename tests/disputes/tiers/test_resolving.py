"""A dispute resolved at any tier becomes a jurisprudence bundle once it commits (R23)."""

from __future__ import annotations

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger
from accord.precedents import Precedents
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
