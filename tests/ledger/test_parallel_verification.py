"""Verification split across worker processes gives the same answers as one process."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from accord.errors import ValidationError, VerificationFailed
from accord.ledger import Ledger
from accord.store import Database
from accord.store.tables import ledger_entries

from .conftest import case_events


def test_parallel_chunks_stitch_into_the_same_report_as_one_worker(
    ledger: Ledger, trusted: dict[str, bytes]
) -> None:
    ledger.append_many(case_events(37))
    ledger.checkpoint()
    single = ledger.verify(trusted, workers=1, chunk=8)
    parallel = ledger.verify(trusted, workers=2, chunk=8)
    assert parallel.workers == 2
    assert (parallel.entries, parallel.root_hash, parallel.head_hash, parallel.checkpoints) == (
        single.entries,
        single.root_hash,
        single.head_hash,
        single.checkpoints,
    )
    assert parallel.root_hash == "sha256:" + ledger.root_at(37).hex()


@pytest.mark.parametrize("bad_seq", [1, 8, 9, 30])
def test_parallel_verification_names_the_first_bad_entry(
    ledger: Ledger, db: Database, trusted: dict[str, bytes], bad_seq: int
) -> None:
    ledger.append_many(case_events(32))
    with db.write() as conn:
        conn.execute(
            update(ledger_entries)
            .where(ledger_entries.c.seq.in_([bad_seq, 31]))
            .values(event_type="dispute_withdrawn")
        )
    with pytest.raises(VerificationFailed) as err:
        ledger.verify(trusted, workers=2, chunk=8)
    assert err.value.context["seq"] == bad_seq


def test_an_entry_moved_across_a_chunk_boundary_breaks_the_stitch(
    ledger: Ledger, db: Database, trusted: dict[str, bytes]
) -> None:
    ledger.append_many(case_events(16))
    with db.write() as conn:
        conn.execute(update(ledger_entries).where(ledger_entries.c.seq == 9).values(seq=100))
    with pytest.raises(VerificationFailed) as err:
        ledger.verify(trusted, workers=2, chunk=8)
    assert err.value.context["seq"] == 9


def test_an_empty_ledger_verifies_trivially(ledger: Ledger, trusted: dict[str, bytes]) -> None:
    report = ledger.verify(trusted)
    assert report.entries == 0
    assert report.head_hash == "GENESIS"


def test_a_chunk_size_that_is_not_a_power_of_two_is_refused(
    ledger: Ledger, trusted: dict[str, bytes]
) -> None:
    ledger.append_many(case_events(3))
    with pytest.raises(ValidationError):
        ledger.verify(trusted, chunk=6)
