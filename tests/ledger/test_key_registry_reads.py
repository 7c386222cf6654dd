"""``Ledger.key_registry`` reuses its last replay only while no key event was added: a key
registered or revoked since, by this ledger or by another process's, is seen at once."""

from __future__ import annotations

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger
from accord.store import Database

REVIEWER = Ed25519Signer.from_seed(b"\x33" * 32)
DEPUTY = Ed25519Signer.from_seed(b"\x44" * 32)


def test_a_key_revoked_after_a_registry_read_is_revoked_in_the_next_read(ledger: Ledger) -> None:
    ledger.register_key(REVIEWER.public_key, "reviewer", "human:ada")
    before = ledger.key_registry().key(REVIEWER.kid)
    assert before is not None
    assert before.revoked_at is None
    revoked = ledger.revoke_key(REVIEWER.kid, "left")
    after = ledger.key_registry().key(REVIEWER.kid)
    assert after is not None
    assert after.revoked_at == revoked.seq


def test_a_key_another_ledger_registers_is_seen_by_this_one(
    db: Database, signer: Ed25519Signer, frozen_clock: FrozenClock, ledger: Ledger
) -> None:
    ledger.register_key(REVIEWER.public_key, "reviewer", "human:ada")
    assert ledger.key_registry().key(DEPUTY.kid) is None
    other = Ledger(db, signer, frozen_clock)  # another process on the same database
    other.register_key(DEPUTY.public_key, "reviewer", "human:bob")
    seen = ledger.key_registry().key(DEPUTY.kid)
    assert seen is not None
    assert seen.principal == "human:bob"


def test_entries_that_are_not_key_events_keep_the_same_registry(ledger: Ledger) -> None:
    ledger.register_key(REVIEWER.public_key, "reviewer", "human:ada")
    first = ledger.key_registry()
    ledger.append("dispute_opened", {"case_id": "case:1"})
    assert ledger.key_registry() is first
