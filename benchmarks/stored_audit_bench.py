"""What auditing boundaries, attempts and the precedent registry adds to ``Accord.verify``.

One database per engine holds a few thousand boundaries (recorded by the library's own session
close from synthetic case views; each with one inconclusive probe attempt, recorded by
``resolve``) and as many signed precedent bundles (``Precedents.add_many``), plus their ledger
entries. The same ``verify_database`` call (ledger, then every stored row) is timed in fresh
processes under two source trees, alternating, best of N: the baseline is the source this
branch started from (``git merge-base HEAD main``, extracted with ``git archive``), which audits
cases and approval items only; the figure is this tree, which also audits the new tables.
The ratio (this tree / baseline) is the figure to compare across runs; the machine is shared.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from io import BytesIO
from pathlib import Path
from typing import Any

from common import Result
from precedent_bench import _draft, postgres_schema

from accord.app import Accord
from accord.boundary import CaseView, ProbeFailed, ProbeResult, TieBreaker
from accord.clock import FrozenClock
from accord.conflicts import Position, detect

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BATCH = 500
ROUNDS = 3


class Inconclusive:
    """A probe whose answer maps to no side: each run is a recorded, inconclusive attempt."""

    name = "erp_total"
    description = "the ERP's invoice total"

    def run(self, arguments: Mapping[str, Any]) -> ProbeResult:
        return ProbeResult(value="0", detail="no such invoice")


def _view(i: int) -> CaseView:
    positions = (
        Position(agent=f"agent:a{i % 97}", output={"total": 1200 + i, "currency": "EUR"}),
        Position(agent=f"agent:b{i % 89}", output={"total": 1450 + i, "currency": "EUR"}),
    )
    return CaseView(
        case_id=f"case:bench-{i:06d}",
        subject=f"invoice {i}",
        task_type="invoicing",
        positions=positions,
        detection=detect(positions),
    )


def populate(url: str, keys: Path, n: int) -> tuple[str, str]:
    """``n`` boundaries (each with one attempt) and ``n`` bundles; the service kid and key."""
    clock = FrozenClock(datetime(2026, 1, 1, tzinfo=UTC))
    accord = Accord.open(db_url=url, keys_dir=keys, clock=clock)
    try:
        accord.probes.register(Inconclusive())
        accord.boundaries.hints["invoicing"] = TieBreaker(
            probe="erp_total", arguments={"invoice": "4411"}, description="the ERP's total"
        )
        for start in range(0, n, BATCH):
            views = [_view(i) for i in range(start, min(n, start + BATCH))]
            for boundary in accord.boundaries.close(f"sess-{start}", views):
                if boundary.status != "pending":
                    continue
                with contextlib.suppress(ProbeFailed):  # the attempt is recorded and signed
                    accord.boundaries.resolve(boundary.boundary_id)
            clock.advance(timedelta(minutes=1))
        rng = random.Random(7)
        ids: list[str] = []
        for start in range(0, n, BATCH * 4):
            drafts = [
                _draft(rng, i, [rng.choice(ids)] if ids and rng.random() < 0.05 else [])
                for i in range(start, min(n, start + BATCH * 4))
            ]
            ids.extend(b.jurisprudence_id for b in accord.precedents.add_many(drafts))
            clock.advance(timedelta(minutes=1))
        signer = accord.ledger.signer
        return signer.kid, signer.public_key.hex()
    finally:
        accord.close()


def baseline_source(into: Path) -> Path:
    """The ``src`` tree this branch started from, extracted with ``git archive``."""
    base = subprocess.run(
        ["git", "-C", str(ROOT), "merge-base", "HEAD", "main"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", base, "src"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def _timed(src: Path, url: str, kid: str, public_hex: str) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, str(HERE / "stored_audit_child.py"), url, kid, public_hex],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    data = json.loads(out)
    return float(data["seconds"]), float(data["cpu_seconds"])


def _engine(engine: str, url: str, keys: Path, baseline: Path, n: int) -> list[Result]:
    began = time.perf_counter()
    kid, public_hex = populate(url, keys, n)
    loaded = time.perf_counter() - began
    before: list[tuple[float, float]] = []
    after: list[tuple[float, float]] = []
    for _ in range(ROUNDS):  # alternate, so both see the same load on the shared machine
        before.append(_timed(baseline, url, kid, public_hex))
        after.append(_timed(ROOT / "src", url, kid, public_hex))
    wall = min(w for w, _ in after), min(w for w, _ in before)
    cpu = min(c for _, c in after), min(c for _, c in before)
    label = f"verify with {n:,} boundaries + attempts and {n:,} bundles ({engine}"
    notes = f"best of {ROUNDS}, fresh processes, workers=1; populated in {loaded:.0f} s"
    return [
        Result(
            f"{label}, wall)",
            wall[0],
            "s",
            baseline=f"same verify, cases/approvals only: {wall[1]:.2f} s",
            ratio=wall[0] / wall[1],
            notes=notes,
            extra={"before": before, "after": after},
        ),
        Result(
            f"{label}, client CPU)",
            cpu[0],
            "s",
            baseline=f"same verify, cases/approvals only: {cpu[1]:.2f} s",
            ratio=cpu[0] / cpu[1],
            notes="CPU of the verifying process and its workers (less sensitive to the load)",
        ),
    ]


def run(quick: bool) -> list[Result]:
    n = 500 if quick else 3_000
    results: list[Result] = []
    with tempfile.TemporaryDirectory() as tmp:
        baseline = baseline_source(Path(tmp) / "baseline")
        results.extend(
            _engine("SQLite", f"sqlite:///{tmp}/audit.db", Path(tmp) / "keys-sqlite", baseline, n)
        )
        pg = os.environ.get("ACCORD_TEST_POSTGRES_URL") or os.environ.get(
            "ACCORD_BENCH_POSTGRES_URL"
        )
        if not pg:
            results.append(
                Result(
                    "stored audit (PostgreSQL)",
                    0,
                    "-",
                    notes="skipped: set ACCORD_TEST_POSTGRES_URL",
                )
            )
            return results
        with postgres_schema(pg) as url:
            results.extend(_engine("PostgreSQL", url, Path(tmp) / "keys-pg", baseline, n))
    return results
