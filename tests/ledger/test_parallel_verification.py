"""Verification split across worker processes gives the same answers as one process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import update

from accord.errors import ValidationError, VerificationFailed
from accord.ledger import Ledger, TrustRoot
from accord.store import Database
from accord.store.tables import ledger_entries

from .conftest import case_events


def test_parallel_chunks_stitch_into_the_same_report_as_one_worker(
    ledger: Ledger, trusted: TrustRoot
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
    ledger: Ledger, db: Database, trusted: TrustRoot, bad_seq: int
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
    ledger: Ledger, db: Database, trusted: TrustRoot
) -> None:
    ledger.append_many(case_events(16))
    with db.write() as conn:
        conn.execute(update(ledger_entries).where(ledger_entries.c.seq == 9).values(seq=100))
    with pytest.raises(VerificationFailed) as err:
        ledger.verify(trusted, workers=2, chunk=8)
    assert err.value.context["seq"] == 9


def test_an_empty_ledger_verifies_trivially(ledger: Ledger, trusted: TrustRoot) -> None:
    report = ledger.verify(trusted)
    assert report.entries == 0
    assert report.head_hash == "GENESIS"


def test_a_chunk_size_that_is_not_a_power_of_two_is_refused(
    ledger: Ledger, trusted: TrustRoot
) -> None:
    ledger.append_many(case_events(3))
    with pytest.raises(ValidationError):
        ledger.verify(trusted, chunk=6)


def test_a_script_without_a_main_guard_can_verify_in_parallel(tmp_path: Path) -> None:
    script = tmp_path / "audit.py"
    script.write_text(
        "from accord.clock import SystemClock\n"
        "from accord.crypto import Ed25519Signer\n"
        "from accord.ledger import Ledger, TrustRoot\n"
        "from accord.store import open_database\n"
        "signer = Ed25519Signer.from_seed(bytes(32))\n"
        f"ledger = Ledger(open_database('sqlite:///{tmp_path / 'a.db'}'), signer, SystemClock())\n"
        "ledger.append_many([('dispute_opened', {'n': i}) for i in range(40)])\n"
        "report = ledger.verify(TrustRoot(signer.kid, signer.public_key), workers=2, chunk=8)\n"
        "print(report.entries, report.workers)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["40", "2"]
