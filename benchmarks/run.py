"""`make bench`: every benchmark, printed as a table and saved as JSON in bench-results/.

Targets are ratios to baselines measured in the same run, because this machine is shared.
Pass --quick for smaller sizes and --only SECTION to run one section.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cli_bench
import crowd_bench
import deadline_bench
import dispute_bench
import dispute_sweep_bench
import integrations_bench
import ledger_bench
import memory_bench
import precedent_bench
import prose_bench
import queue_page_bench
import race_bench
import release_bench
import service_bench
import settle_bench
import stored_audit_bench
import strategies_bench
import tiers_bench
import verify_disputes_bench
import webhooks_bench
from common import Result, report

SECTIONS = {
    "ledger": ledger_bench,
    "settle": settle_bench,
    "strategies": strategies_bench,
    "crowd": crowd_bench,
    "memory": memory_bench,
    "service": service_bench,
    "queue_page": queue_page_bench,
    "race": race_bench,
    "precedents": precedent_bench,
    "deadlines": deadline_bench,
    "release": release_bench,
    "disputes": dispute_bench,
    "tiers": tiers_bench,
    "dispute_sweep": dispute_sweep_bench,
    "verify_disputes": verify_disputes_bench,
    "stored_audit": stored_audit_bench,
    "prose": prose_bench,
    "cli": cli_bench,
    "integrations": integrations_bench,
    "webhooks": webhooks_bench,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes (minutes -> seconds)")
    parser.add_argument(
        "--only", choices=sorted(SECTIONS), action="append", help="run only these sections"
    )
    args = parser.parse_args()
    failed = []
    for name in args.only or list(SECTIONS):
        try:
            results = SECTIONS[name].run(args.quick)
        except Exception as exc:  # report the section as failed, keep the others
            failed.append(name)
            results = [Result(f"{name}: benchmark failed", 0, "-", notes=repr(exc)[:150])]
        report(results, f"Accord benchmarks: {name}", name)
    if failed:
        sys.exit(f"benchmark sections failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
