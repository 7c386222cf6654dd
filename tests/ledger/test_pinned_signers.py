"""Verification trusts one pinned service key and the service keys it registered in signed
``key_registered`` entries — nothing else, however many keys sit in the key folder."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.crypto.encoding import b64encode
from accord.errors import ValidationError, VerificationFailed
from accord.ledger import KeyRegistered, Ledger, TrustRoot
from accord.store import Database
from accord.store.tables import ledger_entries

from .conftest import case_events

MALLORY = Ed25519Signer.from_seed(b"\x66" * 32)
NEXT_SERVICE = Ed25519Signer.from_seed(b"\x22" * 32)
REVIEWER = Ed25519Signer.from_seed(b"\x33" * 32)


def failure(ledger: Ledger, root: TrustRoot, **kw: int) -> VerificationFailed:
    with pytest.raises(VerificationFailed) as err:
        ledger.verify(root, **kw)
    return err.value


def test_a_ledger_rebuilt_wholly_under_another_key_fails_at_its_first_entry(
    db: Database, trusted: TrustRoot, frozen_clock: FrozenClock
) -> None:
    forged = Ledger(db, MALLORY, frozen_clock, checkpoint_every=4)
    forged.append_many(case_events(6))
    forged.checkpoint()
    error = failure(forged, trusted, workers=1)
    assert (error.code, error.context["seq"], error.context["field"]) == (
        "ledger.untrusted_signer",
        1,
        "signer_kid",
    )
    assert forged.verify(TrustRoot(MALLORY.kid, MALLORY.public_key)).entries == 6


def test_an_entry_signed_by_a_key_nobody_registered_is_named_as_untrusted(
    db: Database, ledger: Ledger, trusted: TrustRoot, frozen_clock: FrozenClock
) -> None:
    ledger.append_many(case_events(3))
    Ledger(db, MALLORY, frozen_clock, checkpoint_every=None).append(
        "dispute_resolved", {"case_id": "case:0", "winner": "agent:mallory"}
    )
    error = failure(ledger, trusted, workers=1)
    assert (error.code, error.context["seq"]) == ("ledger.untrusted_signer", 4)


def test_a_key_registered_by_an_untrusted_key_is_refused_at_its_registration(
    db: Database, ledger: Ledger, trusted: TrustRoot, frozen_clock: FrozenClock
) -> None:
    ledger.append_many(case_events(2))
    intruder = Ledger(db, MALLORY, frozen_clock, checkpoint_every=None)
    intruder.register_key(MALLORY.public_key, "service")
    error = failure(ledger, trusted, workers=1)
    assert (error.code, error.context["seq"]) == ("ledger.untrusted_signer", 3)


def test_a_rotated_service_key_signs_after_its_registration_and_across_chunks(
    db: Database, ledger: Ledger, trusted: TrustRoot, frozen_clock: FrozenClock
) -> None:
    ledger.append_many(case_events(5))
    ledger.register_key(NEXT_SERVICE.public_key, "service")
    rotated = Ledger(db, NEXT_SERVICE, frozen_clock, checkpoint_every=4)
    rotated.append_many(case_events(20))
    rotated.checkpoint()
    single = ledger.verify(trusted, workers=1, chunk=8)
    parallel = ledger.verify(trusted, workers=2, chunk=8)
    assert single.entries == parallel.entries == 26
    assert single.signer_kids == sorted([trusted.kid, NEXT_SERVICE.kid])
    assert parallel.root_hash == single.root_hash
    assert parallel.trust_root == trusted.kid


def test_a_revoked_service_key_may_not_sign_after_its_revocation(
    db: Database, ledger: Ledger, trusted: TrustRoot, frozen_clock: FrozenClock
) -> None:
    ledger.register_key(NEXT_SERVICE.public_key, "service")
    rotated = Ledger(db, NEXT_SERVICE, frozen_clock, checkpoint_every=None)
    rotated.revoke_key(trusted.kid, "rotated")
    rotated.append_many(case_events(2))
    assert ledger.verify(trusted, workers=1).entries == 4
    ledger.append_many(case_events(1))  # the revoked root signs entry 5
    error = failure(ledger, trusted, workers=1)
    assert (error.code, error.context["seq"]) == ("ledger.untrusted_signer", 5)


def test_a_reviewer_key_never_signs_entries(
    db: Database, ledger: Ledger, trusted: TrustRoot, frozen_clock: FrozenClock
) -> None:
    ledger.register_key(REVIEWER.public_key, "reviewer", "human:alice")
    Ledger(db, REVIEWER, frozen_clock, checkpoint_every=None).append_many(case_events(1))
    error = failure(ledger, trusted, workers=1)
    assert (error.code, error.context["seq"]) == ("ledger.untrusted_signer", 2)


def test_a_checkpoint_signed_by_an_unregistered_key_is_named(
    db: Database, ledger: Ledger, trusted: TrustRoot, frozen_clock: FrozenClock
) -> None:
    ledger.append_many(case_events(3))
    Ledger(db, MALLORY, frozen_clock).checkpoint()
    error = failure(ledger, trusted, workers=1)
    assert error.code == "ledger.untrusted_signer"
    assert error.context["tree_size"] == 3


def test_a_registration_rewritten_in_the_database_breaks_the_chain_at_that_entry(
    db: Database, ledger: Ledger, trusted: TrustRoot
) -> None:
    ledger.register_key(REVIEWER.public_key, "reviewer", "human:alice")
    ledger.append_many(case_events(2))
    with db.write() as conn:
        body = conn.execute(
            select(ledger_entries.c.body).where(ledger_entries.c.seq == 1)
        ).scalar_one()
        conn.execute(
            update(ledger_entries)
            .where(ledger_entries.c.seq == 1)
            .values(body=bytes(body).replace(b"human:alice", b"human:mallo"))
        )
    error = failure(ledger, trusted, workers=1)
    assert error.context["seq"] == 1


def test_a_kid_is_registered_only_once(ledger: Ledger, trusted: TrustRoot) -> None:
    ledger.register_key(REVIEWER.public_key, "reviewer", "human:alice")
    ledger.register_key(REVIEWER.public_key, "reviewer", "human:bob")
    error = failure(ledger, trusted, workers=1)
    assert (error.code, error.context["seq"], error.context["field"]) == (
        "ledger.bad_key_event",
        2,
        "record.kid",
    )


def test_a_key_event_record_is_checked_against_its_typed_model(
    ledger: Ledger, trusted: TrustRoot
) -> None:
    ledger.append("key_registered", {"kid": REVIEWER.kid, "role": "god"})
    error = failure(ledger, trusted, workers=1)
    assert (error.code, error.context["seq"]) == ("ledger.bad_key_event", 1)
    with pytest.raises(ValueError, match="service keys have no principal"):
        KeyRegistered(
            kid=REVIEWER.kid,
            public_key_b64=b64encode(REVIEWER.public_key),
            role="service",
            principal="human:alice",
            registered_by=trusted.kid,
        )


def test_an_in_memory_ledger_verifies_its_registry_in_process(frozen_clock: FrozenClock) -> None:
    from accord.store import open_database

    db = open_database("sqlite://")
    root = Ed25519Signer.from_seed(bytes(32))
    ledger = Ledger(db, root, frozen_clock, checkpoint_every=2)
    ledger.register_key(NEXT_SERVICE.public_key, "service")
    Ledger(db, NEXT_SERVICE, frozen_clock, checkpoint_every=2).append_many(case_events(3))
    report = ledger.verify(TrustRoot(root.kid, root.public_key), workers=2)
    assert (report.entries, report.workers) == (4, 1)
    with pytest.raises(TypeError):
        ledger.verify({root.kid: root.public_key})  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        TrustRoot(root.kid, NEXT_SERVICE.public_key)


@pytest.mark.parametrize(
    ("changes", "rule"),
    [
        ({"public_key_b64": "not base64!"}, "base64"),
        ({"public_key_b64": b64encode(MALLORY.public_key)}, "kid must be derived"),
        ({"principal": "system:timeout"}, "reserved"),
    ],
)
def test_a_key_registration_record_states_a_consistent_key_and_principal(
    changes: dict[str, str], rule: str
) -> None:
    fields = {
        "kid": REVIEWER.kid,
        "public_key_b64": b64encode(REVIEWER.public_key),
        "role": "reviewer",
        "principal": "human:alice",
        "registered_by": MALLORY.kid,
    }
    with pytest.raises(ValueError, match=rule):
        KeyRegistered.model_validate({**fields, **changes})
