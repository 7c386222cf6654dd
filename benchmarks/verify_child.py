"""Run one full verification in a fresh process and print its rate as JSON (for ledger_bench)."""

from __future__ import annotations

import json
import sys
import time

from accord.clock import SystemClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger, TrustRoot
from accord.store import Database


def main() -> None:
    url, seed_hex, workers = sys.argv[1], sys.argv[2], int(sys.argv[3])
    signer = Ed25519Signer.from_seed(bytes.fromhex(seed_hex))
    db = Database(url)
    ledger = Ledger(db, signer, SystemClock())
    began = time.perf_counter()
    report = ledger.verify(TrustRoot(signer.kid, signer.public_key), workers=workers)
    elapsed = time.perf_counter() - began
    print(
        json.dumps(
            {
                "entries": report.entries,
                "seconds": elapsed,
                "rate": report.entries / elapsed,
                "workers": report.workers,
            }
        )
    )


if __name__ == "__main__":
    main()
