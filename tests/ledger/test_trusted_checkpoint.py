"""A checkpoint kept outside the database catches what the database alone cannot: the newest
entries deleted together with their checkpoint rows, or a ledger rebuilt under the same key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import delete

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.errors import ValidationError, VerificationFailed
from accord.ledger import Checkpoint, Ledger, TrustRoot
from accord.ledger.anchor import read_checkpoint_file, write_checkpoint_file
from accord.ledger.witness import FileWitnesses, witness_file
from accord.store import Database, open_database
from accord.store.tables import ledger_checkpoints, ledger_entries

from .conftest import case_events


def _truncate(db: Database, keep: int) -> None:
    """What an attacker with write access does: the entries and the checkpoints above them."""
    with db.write() as conn:
        conn.execute(delete(ledger_entries).where(ledger_entries.c.seq > keep))
        conn.execute(delete(ledger_checkpoints).where(ledger_checkpoints.c.tree_size > keep))


def test_a_ledger_that_grew_past_the_trusted_checkpoint_verifies(
    ledger: Ledger, trusted: TrustRoot
) -> None:
    ledger.append_many(case_events(5))
    anchor = ledger.checkpoint()
    ledger.append_many(case_events(6))
    report = ledger.verify(trusted, workers=1, trusted_checkpoint=anchor)
    assert report.entries == 11
    assert ledger.verify(trusted, workers=1, trusted_checkpoint=ledger.checkpoint()).entries == 11


def test_deleting_the_newest_entries_and_their_checkpoints_fails_naming_the_missing_range(
    ledger: Ledger, db: Database, trusted: TrustRoot
) -> None:
    ledger.append_many(case_events(10))
    anchor = ledger.checkpoint()
    _truncate(db, 6)
    assert ledger.verify(trusted, workers=1).entries == 6  # the hole the anchor closes
    with pytest.raises(VerificationFailed) as err:
        ledger.verify(trusted, workers=1, trusted_checkpoint=anchor)
    assert err.value.code == "ledger.truncated"
    assert "entries 7..10 are missing" in err.value.message
    assert err.value.context["missing_from"] == 7
    assert err.value.context["missing_to"] == 10


def test_one_missing_entry_is_named_in_the_singular(
    ledger: Ledger, db: Database, trusted: TrustRoot
) -> None:
    ledger.append_many(case_events(3))
    anchor = ledger.checkpoint()
    _truncate(db, 2)
    with pytest.raises(VerificationFailed, match="entry 3 is missing"):
        ledger.verify(trusted, workers=1, trusted_checkpoint=anchor)


def test_a_ledger_rebuilt_under_the_same_key_is_reported_as_forked(
    ledger: Ledger, db: Database, trusted: TrustRoot
) -> None:
    ledger.append_many(case_events(8))
    anchor = ledger.checkpoint()
    _truncate(db, 0)
    ledger.append_many([("dispute_opened", {"case_id": f"forged:{i}"}) for i in range(12)])
    assert ledger.verify(trusted, workers=1).entries == 12  # consistent in itself
    with pytest.raises(VerificationFailed) as err:
        ledger.verify(trusted, workers=1, trusted_checkpoint=anchor)
    assert err.value.code == "ledger.forked"
    assert err.value.context["tree_size"] == 8
    assert "entries 1..8" in err.value.message


def test_a_trusted_checkpoint_must_be_signed_by_a_trusted_key(
    ledger: Ledger, trusted: TrustRoot, frozen_clock: FrozenClock, tmp_path: Path
) -> None:
    ledger.append_many(case_events(4))
    anchor = ledger.checkpoint()
    stranger = Ed25519Signer.from_seed(b"\x09" * 32)
    other = Ledger(open_database(f"sqlite:///{tmp_path / 'other.db'}"), stranger, frozen_clock)
    other.append_many(case_events(4))
    with pytest.raises(VerificationFailed) as unknown:
        ledger.verify(trusted, workers=1, trusted_checkpoint=other.checkpoint())
    assert unknown.value.code == "ledger.untrusted_signer"
    forged = anchor.model_copy(update={"root_hash": "sha256:" + "00" * 32})
    with pytest.raises(VerificationFailed) as bad:
        ledger.verify(trusted, workers=1, trusted_checkpoint=forged)
    assert bad.value.code == "ledger.bad_signature"
    other.db.dispose()


def test_a_checkpoint_file_round_trips_and_is_never_overwritten_without_force(
    ledger: Ledger, tmp_path: Path
) -> None:
    ledger.append_many(case_events(4))
    anchor = ledger.checkpoint()
    path = tmp_path / "anchor.json"
    write_checkpoint_file(path, anchor)
    assert read_checkpoint_file(path) == anchor
    with pytest.raises(ValidationError) as err:
        write_checkpoint_file(path, anchor)
    assert err.value.code == "files.exists"
    assert err.value.context["path"] == str(path)
    write_checkpoint_file(path, anchor, force=True)
    assert read_checkpoint_file(path) == anchor


@pytest.mark.parametrize(
    ("content", "rule"),
    [
        ("not json", "not JSON"),
        ("[]", "not a JSON object"),
        ("{}", "record_type"),
        ('{"record_type": "ledger_checkpoint"}', "tree_size"),
        (
            '{"record_type": "ledger_checkpoint", "tree_size": 0, "root_hash": "sha256:00", '
            '"timestamp": "t", "signer_kid": "k", "signature": {"alg": "ed25519", "kid": "k", '
            '"sig_b64": "", "domain_sep": "x"}}',
            "tree_size must be at least 1",
        ),
        (
            '{"record_type": "ledger_checkpoint", "tree_size": 3, "root_hash": "sha256:zz", '
            '"timestamp": "t", "signer_kid": "k", "signature": {"alg": "ed25519", "kid": "k", '
            '"sig_b64": "", "domain_sep": "x"}}',
            "root_hash",
        ),
        (" " * 70_000, "larger than"),
    ],
)
def test_an_unusable_checkpoint_file_is_named_with_the_rule(
    tmp_path: Path, content: str, rule: str
) -> None:
    path = tmp_path / "cp.json"
    path.write_text(content)
    with pytest.raises(ValidationError) as err:
        read_checkpoint_file(path)
    assert err.value.code == "ledger.bad_trusted_checkpoint"
    assert rule in err.value.context["rule"]
    assert err.value.context["path"] == str(path)


def test_a_missing_checkpoint_file_is_unusable_input(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="cannot read"):
        read_checkpoint_file(tmp_path / "absent.json")


def test_witnesses_receive_every_new_checkpoint_after_it_commits(
    db: Database, signer: Ed25519Signer, frozen_clock: FrozenClock, tmp_path: Path
) -> None:
    witness = tmp_path / "witness"
    ledger = Ledger(
        db, signer, frozen_clock, checkpoint_every=4, on_checkpoint=FileWitnesses([witness])
    )
    ledger.append_many(case_events(9))
    assert sorted(p.name for p in witness.iterdir()) == [
        "checkpoint-000000000004.json",
        "checkpoint-000000000008.json",
    ]
    published = read_checkpoint_file(witness_file(witness, 8))
    assert published == ledger.checkpoints()[1]

    def abort_after_appending() -> None:
        with db.write() as conn:
            ledger.append_within(conn, case_events(3))
            raise RuntimeError("abort")

    with pytest.raises(RuntimeError):  # rolled back: nothing published
        abort_after_appending()
    assert not witness_file(witness, 12).exists()
    assert ledger.size() == 9
    cp = ledger.checkpoint()  # an explicit checkpoint is published too
    assert read_checkpoint_file(witness_file(witness, 9)) == cp


def test_a_witness_that_cannot_be_written_does_not_undo_the_commit(
    db: Database, signer: Ed25519Signer, frozen_clock: FrozenClock, tmp_path: Path
) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    ledger = Ledger(
        db, signer, frozen_clock, checkpoint_every=2, on_checkpoint=FileWitnesses([blocked])
    )
    ledger.append_many(case_events(2))
    assert ledger.size() == 2
    assert [c.tree_size for c in ledger.checkpoints()] == [2]


def test_a_published_checkpoint_is_not_rewritten_and_a_different_one_is_not_overwritten(
    ledger: Ledger, tmp_path: Path
) -> None:
    ledger.append_many(case_events(3))
    cp = ledger.checkpoint()
    witness = tmp_path / "w"
    publish = FileWitnesses([witness])
    publish(cp)
    publish(cp)
    assert read_checkpoint_file(witness_file(witness, 3)) == cp
    other = cp.model_copy(update={"timestamp": "2000-01-01T00:00:00Z"})
    publish(other)
    assert json.loads(witness_file(witness, 3).read_text())["timestamp"] == cp.timestamp


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_any_checkpoint_is_extended_by_any_longer_ledger_and_broken_by_any_truncation(
    data: st.DataObject,
) -> None:
    signer = Ed25519Signer.from_seed(bytes(range(32)))
    trusted = TrustRoot(signer.kid, signer.public_key)
    db = open_database("sqlite:///:memory:")
    ledger = Ledger(db, signer, FrozenClock(), checkpoint_every=None)
    old = data.draw(st.integers(1, 40), label="checkpoint size")
    grown = data.draw(st.integers(0, 40), label="entries after it")
    ledger.append_many(case_events(old))
    anchor: Checkpoint = ledger.checkpoint()
    ledger.append_many(case_events(grown))
    assert ledger.verify(trusted, workers=1, trusted_checkpoint=anchor).entries == old + grown
    keep = data.draw(st.integers(0, old - 1), label="kept after truncation")
    _truncate(db, keep)
    with pytest.raises(VerificationFailed) as err:
        ledger.verify(trusted, workers=1, trusted_checkpoint=anchor)
    assert err.value.context["missing_from"] == keep + 1
    db.dispose()
