"""DCP-07 tiers benchmark (issue 12): a dispute negotiated to its resolution on SQLite.

Measured: ``propose`` + ``accept`` (two signed tier-1 steps, each replaying the negotiation
from its rows and re-signing the §4 record, the second writing the §6 resolution,
``dispute_resolved`` and cancelling the deadline). Baseline, same run and database: opening
the dispute (``Disputes.open``: one signed §4 record, its event and its deadline row). Target:
resolving by negotiation costs at most 4x the opening (it is three recorded events, not one).
"""

from __future__ import annotations

import hashlib
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from common import Result

from accord.clock import FrozenClock
from accord.crypto import Ed25519Signer
from accord.dcp07.parties import Party
from accord.disputes import Disputes
from accord.ledger import Ledger
from accord.store import open_database

BILLING = Party(agent_id="agent:billing", principal_id="human:ana", organization_id="acme")
AUDIT = Party(agent_id="agent:audit", principal_id="human:bo", organization_id="globex")
FILING_GAP = timedelta(hours=3)


def _signer(name: str) -> Ed25519Signer:
    return Ed25519Signer.from_seed(hashlib.sha256(name.encode()).digest())


def run(quick: bool) -> list[Result]:
    count = 40 if quick else 300
    with tempfile.TemporaryDirectory() as folder:
        db = open_database(f"sqlite:///{Path(folder) / 'tiers.db'}")
        clock = FrozenClock(datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
        ledger = Ledger(db, _signer("service"), clock)
        disputes = Disputes(ledger, clock)
        keys = {p.agent_id: _signer(p.agent_id) for p in (BILLING, AUDIT)}
        for agent, key in keys.items():
            ledger.register_key(key.public_key, "agent", agent)
        filing = {
            "dispute_type": "resource_conflict",
            "severity": "high",
            "subject": "both booked the GPU",
            "evidence": [
                {"evidence_type": "log", "reference": "log:1", "description": "booking",
                 "content": {"n": 1}},
            ],
        }  # fmt: skip
        opened: list[str] = []
        negotiation = disputes.tiers.negotiation
        open_seconds = negotiate_seconds = 0.0
        for n in range(count):
            # alternate who files, so the per-complainant flooding limit (R34) never bites
            first, second = (BILLING, AUDIT) if n % 2 else (AUDIT, BILLING)
            clock.advance(FILING_GAP)
            began = time.perf_counter()
            dispute_id = disputes.open(
                {**filing, "complainant": first, "respondents": [second]}
            ).dispute_id
            middle = time.perf_counter()
            offer = negotiation.propose(dispute_id, keys[BILLING.agent_id], "billing first")
            negotiation.accept(dispute_id, keys[AUDIT.agent_id], offer.proposal_id)
            open_seconds += middle - began
            negotiate_seconds += time.perf_counter() - middle
            opened.append(dispute_id)
        resolved = sum(disputes.show(d).status == "resolved" for d in opened)
        db.dispose()
    per_open = open_seconds / count * 1000
    per_resolve = negotiate_seconds / count * 1000
    ratio = per_resolve / per_open
    return [
        Result("dispute opened (baseline)", round(per_open, 2), "ms/dispute"),
        Result(
            "negotiated to resolution (propose + accept)",
            round(per_resolve, 2),
            "ms/dispute",
            baseline="dispute opened",
            ratio=round(ratio, 2),
            target="<= 4x",
            passed=ratio <= 4 and resolved == count,
            notes=f"{resolved}/{count} resolved",
        ),
    ]
