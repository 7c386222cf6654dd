"""`make bench`: every benchmark, printed as a table and saved as JSON in bench-results/.

Targets are ratios to baselines measured in the same run, because this machine is shared.
Pass --quick for smaller sizes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ledger_bench
from common import report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes (minutes -> seconds)")
    args = parser.parse_args()
    results = ledger_bench.run(args.quick)
    report(results, "Accord benchmarks: ledger", "ledger")


if __name__ == "__main__":
    main()
