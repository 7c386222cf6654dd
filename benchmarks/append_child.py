"""One writer process for the PostgreSQL concurrency benchmark: N appends, B per transaction.

It connects, says "ready", waits for "go" on stdin, appends, and prints its start and end
wall-clock times so the parent can time the appends alone (not interpreter start-up).
"""

from __future__ import annotations

import sys
import time

from accord.clock import SystemClock
from accord.crypto import Ed25519Signer
from accord.ledger import Ledger
from accord.store import Database


def main() -> None:
    url, seed_hex, count, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    batch = int(sys.argv[5])
    ledger = Ledger(Database(url), Ed25519Signer.from_seed(bytes.fromhex(seed_hex)), SystemClock())
    ledger.size()  # open the connection before the clock starts
    print("ready", flush=True)
    sys.stdin.readline()
    began = time.time()
    for i in range(0, count, batch):
        ledger.append_many(
            [("dispute_evidence_submitted", {"writer": name, "n": j}) for j in range(i, i + batch)]
        )
    print(f"{began} {time.time()}", flush=True)


if __name__ == "__main__":
    main()
