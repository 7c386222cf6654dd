"""Run one ``verify_database`` (ledger and stored rows) in a fresh process and print its wall
and CPU time as JSON (for stored_audit_bench, which runs it under two source trees: this one
and a baseline)."""

from __future__ import annotations

import json
import resource
import sys
import time

from accord.audit.auditor import verify_database
from accord.ledger import TrustRoot
from accord.store import Database


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the verification workers)."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def main() -> None:
    url, kid, public_hex = sys.argv[1], sys.argv[2], sys.argv[3]
    db = Database(url)
    try:
        began, cpu = time.perf_counter(), _cpu()
        report = verify_database(db, TrustRoot(kid, bytes.fromhex(public_hex)), workers=1)
        elapsed, cpu = time.perf_counter() - began, _cpu() - cpu
    finally:
        db.dispose()
    print(json.dumps({"entries": report.entries, "seconds": elapsed, "cpu_seconds": cpu}))


if __name__ == "__main__":
    main()
