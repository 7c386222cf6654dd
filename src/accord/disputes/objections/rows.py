"""Objection and stay rows: written once, read back with the signed record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import Connection, insert, select

from accord.crypto import canonical_bytes, sha256_prefixed
from accord.dcp07.documents import record_document
from accord.dcp07.objection_record import ObjectionRecord
from accord.store.tables import dispute_objections, dispute_stays

_o = dispute_objections.c
_s = dispute_stays.c


class StoredStay(BaseModel):
    """A stay as stored, with the ledger entry that carries the principal's signed order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    objection_id: str
    dispute_id: str
    resolution_id: str
    ordered_by: str
    ordered_at: str
    reason: str
    ledger_seq: int


class StoredObjection(BaseModel):
    """A signed §8 objection, where it was routed, and the stay ordered on it (if any)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    record: ObjectionRecord
    record_hash: str
    ledger_seq: int
    routed_to: str | None = None
    """``human_appeal`` for a rights objection (R29)."""
    stay: StoredStay | None = None

    @property
    def objection_id(self) -> str:
        return self.record.objection_id

    def to_json_dict(self) -> dict[str, Any]:
        return {
            **record_document(self.record),
            "record_hash": self.record_hash,
            "ledger_seq": self.ledger_seq,
            "routed_to": self.routed_to,
            "stay": None if self.stay is None else self.stay.model_dump(),
        }


def record_hash(record: ObjectionRecord) -> str:
    """``sha256:`` over the signed record's canonical bytes (what a bundle references)."""
    return sha256_prefixed(canonical_bytes(record_document(record)))


def insert_objection(conn: Connection, stored: StoredObjection) -> None:
    record = stored.record
    conn.execute(
        insert(dispute_objections),
        [
            {
                "objection_id": record.objection_id,
                "dispute_id": record.dispute_id,
                "resolution_id": record.resolution_id,
                "objection_type": record.objection_type.value,
                "objecting_agent": record.objecting_party.agent_id,
                "status": record.status.value,
                "routed_to": stored.routed_to,
                "filed_at": record.filed_at,
                "record_hash": stored.record_hash,
                "ledger_seq": stored.ledger_seq,
                "document": canonical_bytes(record_document(record)).decode("utf-8"),
            }
        ],
    )


def insert_stay(conn: Connection, stay: StoredStay) -> None:
    conn.execute(insert(dispute_stays), [stay.model_dump()])


def objections_where(conn: Connection, *conditions: Any) -> list[StoredObjection]:
    rows = conn.execute(
        select(dispute_objections).where(*conditions).order_by(_o.filed_at, _o.objection_id)
    ).all()
    ids = [row.objection_id for row in rows]
    stays = (
        {
            row.objection_id: StoredStay.model_validate(dict(row._mapping))
            for row in conn.execute(select(dispute_stays).where(_s.objection_id.in_(ids))).all()
        }
        if ids
        else {}
    )
    return [
        StoredObjection(
            record=ObjectionRecord.model_validate_json(row.document),
            record_hash=row.record_hash,
            ledger_seq=int(row.ledger_seq),
            routed_to=row.routed_to,
            stay=stays.get(row.objection_id),
        )
        for row in rows
    ]


def stays_of(conn: Connection, resolution_ids: Sequence[str]) -> list[StoredStay]:
    if not resolution_ids:
        return []
    rows = conn.execute(select(dispute_stays).where(_s.resolution_id.in_(list(resolution_ids))))
    return [StoredStay.model_validate(dict(row._mapping)) for row in rows]
