"""Several writer processes never fork the chain; a SIGKILLed writer loses no acknowledged entry."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from accord.ledger import Ledger, TrustRoot

WRITER = Path(__file__).with_name("writer_process.py")
SEED = bytes(range(32)).hex()  # the same key as the `signer` fixture


def start_writer(url: str, count: int, name: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    return subprocess.Popen(
        [sys.executable, str(WRITER), url, SEED, str(count), name],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_four_concurrent_writer_processes_keep_one_unbroken_chain(
    database_url: str, ledger: Ledger, trusted: TrustRoot
) -> None:
    writers = [start_writer(database_url, 40, f"w{i}") for i in range(4)]
    acknowledged: list[tuple[int, str]] = []
    for proc in writers:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        acknowledged += [(int(s), h) for s, h in (line.split() for line in out.splitlines())]
    assert sorted(s for s, _ in acknowledged) == list(range(1, 161))
    report = ledger.verify(trusted, workers=2)
    assert report.entries == 160
    for seq, entry_hash in acknowledged:
        assert ledger.get(seq).entry_hash == entry_hash


def test_a_writer_killed_mid_burst_loses_no_acknowledged_append(
    database_url: str, ledger: Ledger, trusted: TrustRoot
) -> None:
    proc = start_writer(database_url, 100_000, "doomed")
    acknowledged: list[tuple[int, str]] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        seq, entry_hash = line.split()
        acknowledged.append((int(seq), entry_hash))
        if len(acknowledged) == 120:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    report = ledger.verify(trusted, workers=1)
    assert report.entries >= 120
    for seq, entry_hash in acknowledged:
        assert ledger.get(seq).entry_hash == entry_hash
    # the ledger keeps working after the crash
    ledger.append("dispute_resolved", {"after": "crash"})
    assert ledger.verify(trusted, workers=1).entries == report.entries + 1
