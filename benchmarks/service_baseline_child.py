"""One service load phase in a process of its own, for a same-run baseline: run with
``PYTHONPATH`` naming another checkout's ``src`` (a previous release) so that both the database
it prepares and the `accord serve` it starts are that code's. Same load as the service
benchmark's separate-client phase (``load_child.py``). Prints one JSON object.

Usage: python service_baseline_child.py SECONDS ITEMS [WORKERS]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from service_common import REFUND, cpu_seconds, prepare, serving

CLIENTS = 50


def main() -> None:
    seconds, n = sys.argv[1], int(sys.argv[2])
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    with tempfile.TemporaryDirectory() as tmp:
        instance = prepare(Path(tmp), f"sqlite:///{Path(tmp) / 'baseline.db'}")
        accord = instance.open()
        try:
            items = [
                accord.settle(f"refund {i}", REFUND, task_type="refunds").approval_item_id
                for i in range(n)
            ]
        finally:
            accord.close()
        items_file = Path(tmp) / "items.json"
        items_file.write_text(json.dumps(items), encoding="utf-8")
        options = ("--workers", str(workers)) if workers > 1 else ()
        with serving(instance, *options) as (base, pid):
            before = cpu_seconds(pid)
            child = subprocess.run(
                [sys.executable, str(Path(__file__).with_name("load_child.py")), base, seconds,
                 str(CLIENTS), instance.admin, instance.reviewers[0], str(items_file)],
                capture_output=True, text=True, check=True,
            )
            server_cpu = cpu_seconds(pid) - before
    answer = json.loads(child.stdout)
    answer["server_cpu"] = server_cpu
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
