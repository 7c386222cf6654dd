"""``dispute_prepared_steps`` in and out, inside the caller's transaction."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Update, delete, select, update

from accord.clock import isoformat
from accord.ledger.entry import ChainHead
from accord.store.tables import dispute_prepared_steps as _t


@dataclass(frozen=True, slots=True)
class PreparedRow:
    """One prepared step as stored (see ``store/tables.py``)."""

    prepared_id: str
    dispute_id: str
    step: str
    arguments: dict[str, Any]
    actor_id: str
    role: str
    kid: str
    pinned_at: datetime
    id_seed: bytes
    head: ChainHead
    dispute_record_hash: str
    payloads: tuple[dict[str, str], ...]
    """``{"sha256", "what"}`` of each payload shown so far, in order."""
    signatures: tuple[str, ...]
    """The base64 signatures given so far, one per payload (the last payload's awaited)."""
    created_at: datetime
    expires_at: datetime
    consumed_at: datetime | None

    @property
    def round(self) -> int:
        return len(self.signatures)


def insert_within(conn: Connection, row: PreparedRow) -> None:
    conn.execute(
        _t.insert().values(
            prepared_id=row.prepared_id,
            dispute_id=row.dispute_id,
            step=row.step,
            arguments=_json(row.arguments),
            actor_id=row.actor_id,
            role=row.role,
            kid=row.kid,
            pinned_at=isoformat(row.pinned_at),
            id_seed=row.id_seed.hex(),
            head_seq=row.head.seq,
            head_hash=row.head.entry_hash,
            head_hash_secondary=row.head.entry_hash_secondary,
            dispute_record_hash=row.dispute_record_hash,
            payloads=_json(list(row.payloads)),
            signatures=_json(list(row.signatures)),
            round=row.round,
            created_at=isoformat(row.created_at),
            expires_at=isoformat(row.expires_at),
            consumed_at=None,
        )
    )


def load_within(conn: Connection, prepared_id: str) -> PreparedRow | None:
    r = conn.execute(select(_t).where(_t.c.prepared_id == prepared_id)).first()
    if r is None:
        return None
    return PreparedRow(
        prepared_id=r.prepared_id,
        dispute_id=r.dispute_id,
        step=r.step,
        arguments=json.loads(r.arguments),
        actor_id=r.actor_id,
        role=r.role,
        kid=r.kid,
        pinned_at=datetime.fromisoformat(r.pinned_at),
        id_seed=bytes.fromhex(r.id_seed),
        head=ChainHead(int(r.head_seq), r.head_hash, r.head_hash_secondary),
        dispute_record_hash=r.dispute_record_hash,
        payloads=tuple(json.loads(r.payloads)),
        signatures=tuple(json.loads(r.signatures)),
        created_at=datetime.fromisoformat(r.created_at),
        expires_at=datetime.fromisoformat(r.expires_at),
        consumed_at=None if r.consumed_at is None else datetime.fromisoformat(r.consumed_at),
    )


def advance_within(
    conn: Connection,
    row: PreparedRow,
    payloads: tuple[dict[str, str], ...],
    signatures: tuple[str, ...],
) -> bool:
    """Record a round: ``payloads`` shown and ``signatures`` given, if nobody else recorded
    one since ``row`` was read (compare-and-set on ``round``). True when it did."""
    changed = conn.execute(
        _unchanged_since(row).values(
            payloads=_json(list(payloads)),
            signatures=_json(list(signatures)),
            round=len(signatures),
        )
    )
    return changed.rowcount == 1


def consume_within(
    conn: Connection, row: PreparedRow, signatures: tuple[str, ...], at: datetime
) -> bool:
    """Mark the step recorded (compare-and-set: not consumed, no round since ``row``)."""
    changed = conn.execute(
        _unchanged_since(row).values(
            signatures=_json(list(signatures)), round=len(signatures), consumed_at=isoformat(at)
        )
    )
    return changed.rowcount == 1


def _unchanged_since(row: PreparedRow) -> Update:
    """The compare-and-set both writes make: ``row``'s step, not consumed, no round since."""
    return (
        update(_t)
        .where(_t.c.prepared_id == row.prepared_id)
        .where(_t.c.round == row.round)
        .where(_t.c.consumed_at.is_(None))
    )


def purge_within(conn: Connection, expired_before: datetime) -> None:
    """Forget prepared steps that expired before ``expired_before``."""
    conn.execute(delete(_t).where(_t.c.expires_at < isoformat(expired_before)))


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))
