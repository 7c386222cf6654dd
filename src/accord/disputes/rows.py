"""The dispute tables' rows: built from the signed §4 record, read back, queried.

Every write happens inside the caller's ``db.write()`` transaction (the recorder's); reads
take a connection too, so a step reads and writes one snapshot.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, select, update

from accord.clock import isoformat
from accord.dcp07.dispute_record import DisputeRecord
from accord.dcp07.documents import record_document
from accord.dcp07.evidence_item import EvidenceItem
from accord.dcp07.filing_rules import PastFiling
from accord.dcp07.resolution_record import ResolutionRecord
from accord.store.database import Database
from accord.store.tables import (
    dcp_dispute_events,
    dcp_dispute_evidence,
    dcp_dispute_parties,
    dcp_disputes,
)


def _text(document: dict[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def insert_disputes(
    conn: Connection, db: Database, opened: Sequence[tuple[DisputeRecord, dict[str, Any], int]]
) -> None:
    """New disputes' rows (each with ``opened_seq``, the ledger entry opening it) and their
    parties' rows, one statement per table."""
    db.insert_rows(
        conn,
        dcp_disputes,
        [
            {
                "dispute_id": record.dispute_id,
                "opened_seq": opened_seq,
                "dispute_type": record.dispute_type.value,
                "severity": record.severity.value,
                "status": record.status.value,
                "tier": record.current_escalation_level.value,
                "complainant_id": record.complainant.agent_id,
                "opened_at": record.opened_at,
                "updated_at": record.opened_at,
                "escalation_deadline": record.escalation_deadline,
                "party_escalated": False,
                "resolution_id": None,
                "resolved_against_complainant": False,
                "version": 1,
                "document": _text(document),
                "resolution": None,
            }
            for record, document, opened_seq in opened
        ],
    )
    db.insert_rows(
        conn,
        dcp_dispute_parties,
        [
            {
                "dispute_id": record.dispute_id,
                "agent_id": p.agent_id,
                "role": "complainant" if index == 0 else "respondent",
                "principal_id": p.principal_id,
                "organization_id": p.organization_id,
            }
            for record, _, _ in opened
            for index, p in enumerate(record.parties)
        ],
    )


def update_dispute(
    conn: Connection,
    record: DisputeRecord,
    document: dict[str, Any],
    *,
    version: int,
    updated_at: str,
    party_escalated: bool | None = None,
    resolution: ResolutionRecord | None = None,
    resolved_against_complainant: bool | None = None,
) -> None:
    """The dispute's row after a step (``version`` is the row's version before it)."""
    values = _step_values(record, document, version, updated_at)
    if party_escalated is not None:
        values["party_escalated"] = party_escalated
    if resolution is not None:
        values["resolution_id"] = resolution.resolution_id
        values["resolution"] = _text(record_document(resolution))
    if resolved_against_complainant is not None:
        values["resolved_against_complainant"] = resolved_against_complainant
    table = dcp_disputes.c
    done = conn.execute(
        update(dcp_disputes)
        .where(table.dispute_id == record.dispute_id, table.version == version)
        .values(**values)
    )
    if done.rowcount != 1:  # pragma: no cover - writes hold the writer lock
        raise RuntimeError(f"dispute {record.dispute_id} changed under its writer lock")


def update_disputes(
    conn: Connection,
    changed: Sequence[tuple[DisputeRecord, dict[str, Any], int]],
    *,
    updated_at: str,
) -> None:
    """Several disputes' rows after a step each (``(record, document, version before)``), in
    one statement; the columns :func:`update_dispute` always writes."""
    if not changed:
        return
    params = [
        {"row_id": record.dispute_id, "row_version": version,
         **_step_values(record, document, version, updated_at)}
        for record, document, version in changed
    ]  # fmt: skip
    done = conn.execute(_UPDATE_STEP, params)
    if done.rowcount != len(params):  # pragma: no cover - writes hold the writer lock
        raise RuntimeError("a dispute changed under its writer lock")


def _step_values(
    record: DisputeRecord, document: dict[str, Any], version: int, updated_at: str
) -> dict[str, Any]:
    """The columns every step writes."""
    return {
        "status": record.status.value,
        "tier": record.current_escalation_level.value,
        "updated_at": updated_at,
        "escalation_deadline": record.escalation_deadline,
        "version": version + 1,
        "document": _text(document),
    }


_UPDATE_STEP = (
    update(dcp_disputes)
    .where(
        dcp_disputes.c.dispute_id == bindparam("row_id"),
        dcp_disputes.c.version == bindparam("row_version"),
    )
    .values({name: bindparam(name) for name in
             ("status", "tier", "updated_at", "escalation_deadline", "version", "document")})
)  # fmt: skip


def insert_evidence(
    conn: Connection,
    db: Database,
    submitted: Sequence[tuple[str, Sequence[EvidenceItem], int]],
) -> None:
    """Evidence rows: per ``(dispute id, items, ledger seq)``, one statement in all."""
    db.insert_rows(
        conn,
        dcp_dispute_evidence,
        [
            {
                "dispute_id": dispute_id,
                "evidence_id": e.evidence_id,
                "submitted_by": e.submitted_by,
                "evidence_type": e.evidence_type,
                "reference": e.reference,
                "description": e.description,
                "content_hash": e.content_hash,
                "submitted_at": e.submitted_at,
                "ledger_seq": ledger_seq,
            }
            for dispute_id, items, ledger_seq in submitted
            for e in items
        ],
    )


def insert_events(
    conn: Connection, db: Database, recorded: Sequence[tuple[DisputeRecord, int]]
) -> None:
    """The timeline row of each record's last event (with the ledger seq that signs it)."""
    rows = []
    for record, ledger_seq in recorded:
        last = record.timeline[-1]
        rows.append(
            {
                "dispute_id": record.dispute_id,
                "position": len(record.timeline) - 1,
                "event_type": last.event,
                "actor": last.actor,
                "at": last.timestamp,
                "status": record.status.value,
                "tier": record.current_escalation_level.value,
                "ledger_seq": ledger_seq,
            }
        )
    db.insert_rows(conn, dcp_dispute_events, rows)


class DisputeRow:
    """One ``dcp_disputes`` row as read: the record, and what the row adds to it."""

    __slots__ = ("party_escalated", "record", "resolution", "version")

    def __init__(self, row: Any) -> None:
        self.record = DisputeRecord.model_validate_json(row.document)
        self.version = int(row.version)
        self.party_escalated = bool(row.party_escalated)
        self.resolution = (
            None if row.resolution is None else ResolutionRecord.model_validate_json(row.resolution)
        )


def load_dispute(conn: Connection, dispute_id: str) -> DisputeRow | None:
    table = dcp_disputes.c
    row = conn.execute(
        select(table.document, table.version, table.party_escalated, table.resolution).where(
            table.dispute_id == dispute_id
        )
    ).first()
    return None if row is None else DisputeRow(row)


#: Ids per query of :func:`load_disputes` (well under either engine's parameter limit).
_IDS_PER_QUERY = 500


def load_disputes(conn: Connection, dispute_ids: Sequence[str]) -> dict[str, DisputeRow]:
    """The stored disputes among ``dispute_ids``, by id (one query per 500 ids)."""
    table = dcp_disputes.c
    found: dict[str, DisputeRow] = {}
    wanted = sorted(set(dispute_ids))
    for first in range(0, len(wanted), _IDS_PER_QUERY):
        rows = conn.execute(
            select(
                table.dispute_id, table.document, table.version, table.party_escalated,
                table.resolution,
            ).where(table.dispute_id.in_(wanted[first : first + _IDS_PER_QUERY]))
        )  # fmt: skip
        found.update((row.dispute_id, DisputeRow(row)) for row in rows)
    return found


def past_filings(
    conn: Connection, agent_ids: Sequence[str], since: datetime
) -> dict[str, list[PastFiling]]:
    """What the filing rules need of each agent's earlier disputes (R34): those filed after
    ``since`` (the rate-limit window) and those resolved against it (its score)."""
    table = dcp_disputes.c
    found: dict[str, list[PastFiling]] = {agent: [] for agent in agent_ids}
    rows = conn.execute(
        select(table.complainant_id, table.opened_at, table.resolved_against_complainant).where(
            table.complainant_id.in_(sorted(found)),
            (table.opened_at > isoformat(since)) | table.resolved_against_complainant.is_(True),
        )
    ).all()
    for r in rows:
        found[r.complainant_id].append(
            PastFiling(
                filed_at=datetime.fromisoformat(r.opened_at.replace("Z", "+00:00")),
                resolved_against_filer=bool(r.resolved_against_complainant),
            )
        )
    return found


def ledger_seqs(conn: Connection, dispute_id: str) -> list[int]:
    """The ledger entries that sign the dispute's events, in order."""
    table = dcp_dispute_events.c
    return [
        int(seq)
        for seq in conn.execute(
            select(table.ledger_seq).where(table.dispute_id == dispute_id).order_by(table.position)
        ).scalars()
    ]
