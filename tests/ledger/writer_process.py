"""A ledger writer run as a separate process by the crash and concurrency tests.

Usage: python writer_process.py URL SEED_HEX COUNT NAME
Prints ``seq entry_hash`` for every append once ``append`` has returned (acknowledged).
"""

from __future__ import annotations

import sys

from accord.clock import SystemClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger
from accord.store import Database


def main() -> None:
    url, seed_hex, count, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    db = Database(url)
    ledger = Ledger(
        db, Ed25519Signer.from_seed(bytes.fromhex(seed_hex)), SystemClock(), checkpoint_every=50
    )
    for i in range(count):
        entry = ledger.append("dispute_evidence_submitted", {"writer": name, "n": i})
        sys.stdout.write(f"{entry.seq} {entry.entry_hash}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
