"""Verify a stored ledger against a pinned root of trust (no signing key needed).

1. In one read snapshot: the head, the checkpoints and the rows of the watched event types.
2. The trust pass (``key_registry``) replays key events and reviewer signatures from those rows,
   yielding every service key's signing window.
3. The chain pass (``verify.verify_chain``, parallel) checks every entry and checkpoint against
   those windows and reports the entry hashes of the watched rows.
4. Both passes must have seen the same watched rows: the registry is part of the verified chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select

from accord.errors import VerificationFailed
from accord.ledger.anchor import check_extends, check_truncation
from accord.ledger.checkpoint import Checkpoint
from accord.ledger.key_registry import WATCHED_EVENTS, trust_pass
from accord.ledger.leaf_reader import leaf_reader
from accord.ledger.merkle import consistency_path
from accord.ledger.trust import NO_END, TrustRoot
from accord.ledger.verify import (
    CHUNK,
    VerificationReport,
    checkpoint_rows_to_items,
    verify_chain,
)
from accord.store import Database
from accord.store.tables import ledger_checkpoints, ledger_entries
from accord.values import revised

ENTRY_COLUMNS = (
    ledger_entries.c.seq,
    ledger_entries.c.event_type,
    ledger_entries.c.timestamp,
    ledger_entries.c.signer_kid,
    ledger_entries.c.body,
    ledger_entries.c.signature,
    ledger_entries.c.entry_hash,
    ledger_entries.c.entry_hash_secondary,
)


def verify_stored(
    db: Database,
    root: TrustRoot,
    *,
    workers: int | None = None,
    chunk: int = CHUNK,
    trusted_checkpoint: Checkpoint | None = None,
) -> VerificationReport:
    """Check every entry, link, checkpoint, key registration and reviewer signature of the
    ledger in ``db``, trusting only ``root``; raise ``VerificationFailed`` at the first fault.

    With ``trusted_checkpoint`` (one kept outside the database, see ``ledger.anchor``) also
    prove that the ledger extends it: no entry at or below its size was removed or altered.
    Its signer must be the root or a service key the root registered."""
    if not isinstance(root, TrustRoot):
        raise TypeError("verify needs a TrustRoot: the one pinned service key")
    with db.read() as conn:
        size = int(
            conn.execute(select(func.coalesce(func.max(ledger_entries.c.seq), 0))).scalar_one()
        )
        cps = checkpoint_rows_to_items(
            conn.execute(
                select(
                    ledger_checkpoints.c.tree_size,
                    ledger_checkpoints.c.body,
                    ledger_checkpoints.c.signature,
                    ledger_checkpoints.c.signer_kid,
                    ledger_checkpoints.c.frontier,
                ).order_by(ledger_checkpoints.c.tree_size)
            ).all()
        )
        trust = trust_pass(
            conn.execute(
                select(ledger_entries.c.seq, ledger_entries.c.body, ledger_entries.c.entry_hash)
                .where(ledger_entries.c.event_type.in_(sorted(WATCHED_EVENTS)))
                .where(ledger_entries.c.seq >= 1, ledger_entries.c.seq <= size)
                .order_by(ledger_entries.c.seq)
            ).all(),  # read whole: a problem stops the replay, and an unread cursor (kept
            root,  # alive by the problem's traceback) would hold SQLite's lock after verify
        )
    if trusted_checkpoint is not None:  # the outside anchor first: names what is missing
        check_truncation(trusted_checkpoint, size)
    try:
        report, seen = verify_chain(
            db.url_string(),
            size,
            cps,
            trust.registry.windows(),
            workers=workers,
            read_chunk=None if db.shareable else _rows_reader(db),
            chunk=chunk,
            watched=WATCHED_EVENTS,
        )
    except VerificationFailed as exc:  # the earlier of the two passes' first faults
        if trust.problem is not None and _position(trust.problem) <= _position(exc):
            raise trust.problem from None
        raise
    if trust.problem is not None:
        raise trust.problem
    if seen != trust.entry_hashes:
        differing = sorted(set(seen.items()) ^ set(trust.entry_hashes.items()))
        seq = differing[0][0]
        raise VerificationFailed(
            f"entry {seq}: the key and decision rows changed while they were verified",
            code="ledger.verification_failed",
            seq=seq,
            field="event_type",
            rule="the trust pass and the chain pass read the same rows",
        )
    if trusted_checkpoint is not None:
        windows = trust.registry.windows() | root.windows()
        with db.read() as conn:
            path = consistency_path(leaf_reader(conn), trusted_checkpoint.tree_size, report.entries)
        check_extends(
            trusted_checkpoint,
            size=report.entries,
            root=bytes.fromhex(report.root_hash.removeprefix("sha256:")),
            path=path,
            trusted_keys={kid: window[0] for kid, window in windows.items()},
        )
    return revised(
        report,
        trust_root=root.kid,
        signed_decisions=trust.signed_decisions,
        os_login_decisions=trust.os_login_decisions,
    )


def _position(error: VerificationFailed) -> int:
    """Where a fault sits in the ledger: its entry, or a checkpoint's tree size."""
    where = error.context.get("seq", error.context.get("tree_size"))
    return where if isinstance(where, int) else NO_END


def _rows_reader(db: Database) -> Any:
    def read(start: int, end: int) -> list[Sequence[Any]]:
        with db.read() as conn:
            return [
                tuple(r)
                for r in conn.execute(
                    select(*ENTRY_COLUMNS)
                    .where(ledger_entries.c.seq >= start, ledger_entries.c.seq < end)
                    .order_by(ledger_entries.c.seq)
                ).all()
            ]

    return read
