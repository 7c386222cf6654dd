"""``accord verify`` with the DCP-07 dispute tables audited (SQLite), against itself without.

A database of ``COUNT`` disputes: each filed with two evidence items, a third of them
escalated by a party, a third withdrawn, then more evidence on every other one; the last
third settled by negotiation (both parties' agent keys registered, a party-signed proposal
and acceptance, a §6 agreement both signed). Timed in the same run, best of ``ROUNDS``: the
whole verification (:func:`accord.audit.auditor.verify_database`: the ledger, the cases, the
approvals and the dispute tables), the dispute-table audit alone
(:func:`accord.audit.disputes.audit_dispute_tables`) and, inside it, the re-check of the
parties' own signatures (:func:`~accord.audit.disputes.party_signatures.party_signature_problem`
over the already folded records). *Before* is the whole minus the dispute audit, what
``verify`` did before the dispute tables were audited; the figures to compare across runs are
the ratio whole / before and the signature check's share.
"""

from __future__ import annotations

import hashlib
import tempfile
import time
from collections.abc import Callable

from common import Result
from dispute_bench import filing

from accord.audit.auditor import verify_database
from accord.audit.disputes import audit_dispute_tables
from accord.audit.disputes.party_signatures import party_signature_problem
from accord.audit.disputes.signed import SIGNED_EVENTS, signed_ledger
from accord.clock import SystemClock
from accord.crypto import Ed25519Signer
from accord.disputes import Disputes
from accord.ledger import Ledger, TrustRoot
from accord.ledger.ledger import pinned_registry_within, records_within
from accord.store import Database, open_database

SEED = bytes(range(32))
BATCH = 200
ROUNDS = 3


def _best(fn: Callable[[], object]) -> float:
    times = []
    for _ in range(ROUNDS):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return min(times)


def _party_key(name: str) -> Ed25519Signer:
    return Ed25519Signer.from_seed(hashlib.sha256(f"bench:{name}".encode()).digest())


def _populate(db: Database, signer: Ed25519Signer, count: int) -> None:
    ledger = Ledger(db, signer, SystemClock())
    disputes = Disputes(ledger, SystemClock())
    ids = []
    for b in range(0, count, BATCH):
        ids += [
            d.record.dispute_id
            for d in disputes.open_many([filing(i) for i in range(b, min(b + BATCH, count))])
        ]
    for i, dispute_id in enumerate(ids):
        if i % 3 == 0:
            disputes.escalate(dispute_id, by=f"agent:trainer-{i}")
        elif i % 3 == 1:
            disputes.withdraw(dispute_id, by=f"agent:planner-{i}")
        if i % 2 == 0 and i % 3 != 1:
            evidence = {"evidence_type": "log", "reference": f"log:{i}", "description": "more",
                        "content": {"entry": i}}  # fmt: skip
            disputes.submit_evidence(dispute_id, evidence, by=f"agent:planner-{i}")
    negotiation = disputes.tiers.negotiation
    for i, dispute_id in enumerate(ids):
        if i % 3 != 2:
            continue
        planner, trainer = f"agent:planner-{i}", f"agent:trainer-{i}"
        for agent in (planner, trainer):
            ledger.register_key(_party_key(agent).public_key, "agent", agent)
        proposal = negotiation.propose(dispute_id, _party_key(planner), "planner first")
        negotiation.accept(dispute_id, _party_key(trainer), proposal.proposal_id)


def run(quick: bool) -> list[Result]:
    count = 1_000 if quick else 3_000
    signer = Ed25519Signer.from_seed(SEED)
    root = TrustRoot(signer.kid, signer.public_key)
    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(f"sqlite:///{tmp}/verify.db")
        try:
            _populate(db, signer, count)
            whole = _best(lambda: verify_database(db, root, workers=1))
            report = verify_database(db, root, workers=1)
            with db.read() as conn:
                registry, _ = pinned_registry_within(conn, root, report.entries)
                folded = signed_ledger(records_within(conn, SIGNED_EVENTS))

            def disputes_only() -> None:
                with db.read() as conn:
                    assert audit_dispute_tables(conn, registry).problem is None

            audit = _best(disputes_only)
            signatures = _best(lambda: party_signature_problem(folded, registry))
            signed = sum(
                len(d.party_steps)
                + len(d.vote_steps)
                + len((d.resolution or {}).get("signatures") or ())
                for d in folded.disputes.values()
            )
        finally:
            db.dispose()
    before = whole - audit
    return [
        Result(
            f"verify without the dispute tables ({count:,} disputes, SQLite, 1 worker)",
            before,
            "s",
            notes=f"baseline, same run: whole minus the dispute audit; {report.entries:,} entries",
        ),
        Result(
            f"verify with the dispute tables audited ({count:,} disputes)",
            whole,
            "s",
            baseline="verify without the dispute tables",
            ratio=whole / before,
            notes=f"dispute audit alone {audit:.3f} s ({report.disputes / audit:,.0f} disputes/s)",
        ),
        Result(
            f"re-checking {signed:,} party, member and principal signatures in dispute records",
            signatures,
            "s",
            baseline="verify with the dispute tables audited, without this check",
            ratio=whole / (whole - signatures),
            notes=f"{signed / signatures:,.0f} signatures/s; {signatures / whole:.1%} of verify",
        ),
    ]
