"""Run one ``verify_database`` (ledger and stored rows) in a fresh process and print its time as
JSON (for stored_audit_bench, which runs it under two source trees: this one and a baseline)."""

from __future__ import annotations

import json
import sys
import time

from accord.auditor import verify_database
from accord.ledger import TrustRoot
from accord.store import Database


def main() -> None:
    url, kid, public_hex = sys.argv[1], sys.argv[2], sys.argv[3]
    db = Database(url)
    try:
        began = time.perf_counter()
        report = verify_database(db, TrustRoot(kid, bytes.fromhex(public_hex)), workers=1)
        elapsed = time.perf_counter() - began
    finally:
        db.dispose()
    print(json.dumps({"entries": report.entries, "seconds": elapsed}))


if __name__ == "__main__":
    main()
