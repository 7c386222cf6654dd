"""Collecting cases as rows: written, read back and moved (compare-and-set) in the caller's
transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, insert, select, update

from accord.cases.collecting_case import CollectingCase
from accord.cases.statuses import CollectingStatus
from accord.clock import isoformat
from accord.conflicts import Position
from accord.crypto.record_signature import RecordSignature
from accord.store.tables import collecting_cases, collecting_parties


def insert_collecting(conn: Connection, case: CollectingCase) -> None:
    """The case's row and one row per expected party (no position yet)."""
    conn.execute(
        insert(collecting_cases),
        [
            {
                "collecting_id": case.collecting_id,
                "subject": case.subject,
                "task_type": case.task_type,
                "session_id": case.session_id,
                "opened_by": case.opened_by,
                "opened_at": isoformat(case.opened_at),
                "deadline_at": isoformat(case.deadline_at),
                "status": case.status.value,
                "case_id": None,
                "closed_at": None,
                "closed_reason": None,
            }
        ],
    )
    conn.execute(
        insert(collecting_parties),
        [
            {
                "collecting_id": case.collecting_id,
                "agent_id": agent,
                "ordinal": ordinal,
                "position": None,
                "submitted_at": None,
                "signature": None,
            }
            for ordinal, agent in enumerate(case.parties)
        ],
    )


def store_position(
    conn: Connection,
    collecting_id: str,
    position: Position,
    at: datetime,
    signature: RecordSignature | None = None,
) -> bool:
    """Write ``position`` (and its party's signature) as its agent's, once: False when that
    party had already submitted."""
    result = conn.execute(
        update(collecting_parties)
        .where(collecting_parties.c.collecting_id == collecting_id)
        .where(collecting_parties.c.agent_id == position.agent)
        .where(collecting_parties.c.position.is_(None))
        .values(
            position=position.model_dump_json(),
            submitted_at=isoformat(at),
            signature=None if signature is None else signature.model_dump_json(),
        )
    )
    return result.rowcount == 1


def save_move(conn: Connection, moved: CollectingCase) -> bool:
    """Store a move out of ``collecting`` (compare-and-set): False when another writer closed
    the case first."""
    result = conn.execute(
        update(collecting_cases)
        .where(collecting_cases.c.collecting_id == moved.collecting_id)
        .where(collecting_cases.c.status == CollectingStatus.COLLECTING.value)
        .values(
            status=moved.status.value,
            case_id=moved.case_id,
            closed_at=None if moved.closed_at is None else isoformat(moved.closed_at),
            closed_reason=moved.closed_reason,
        )
    )
    return result.rowcount == 1


def load_collecting(conn: Connection, collecting_id: str) -> CollectingCase | None:
    """The collecting case as stored, or None."""
    found = load_many(conn, [collecting_id])
    return found[0] if found else None


def load_many(conn: Connection, ids: Sequence[str]) -> list[CollectingCase]:
    """The collecting cases of ``ids`` that exist, in the order given."""
    if not ids:
        return []
    rows = {
        r["collecting_id"]: r
        for r in conn.execute(
            select(collecting_cases).where(collecting_cases.c.collecting_id.in_(list(ids)))
        ).mappings()
    }
    parties: dict[str, list[tuple[str, bool, bool]]] = {}
    for party in conn.execute(
        select(
            collecting_parties.c.collecting_id,
            collecting_parties.c.agent_id,
            collecting_parties.c.position.is_not(None).label("submitted"),
            collecting_parties.c.signature.is_not(None).label("signed"),
        )
        .where(collecting_parties.c.collecting_id.in_(list(ids)))
        .order_by(collecting_parties.c.collecting_id, collecting_parties.c.ordinal)
    ).mappings():
        parties.setdefault(party["collecting_id"], []).append(
            (party["agent_id"], bool(party["submitted"]), bool(party["signed"]))
        )
    return [_model(rows[i], parties.get(i, [])) for i in ids if i in rows]


def positions_within(conn: Connection, collecting_id: str) -> list[Position]:
    """The positions that arrived, in the order the parties were named."""
    rows = conn.execute(
        select(collecting_parties.c.position)
        .where(collecting_parties.c.collecting_id == collecting_id)
        .where(collecting_parties.c.position.is_not(None))
        .order_by(collecting_parties.c.ordinal)
    ).scalars()
    return [Position.model_validate_json(text) for text in rows]


def page_ids(
    conn: Connection,
    *,
    party: str | None,
    status: CollectingStatus | None,
    before: str | None,
    limit: int,
) -> list[str]:
    """Ids of a page of collecting cases, newest first (ids are time-ordered)."""
    query = select(collecting_cases.c.collecting_id)
    if party is not None:
        query = query.join(
            collecting_parties,
            and_(
                collecting_parties.c.collecting_id == collecting_cases.c.collecting_id,
                collecting_parties.c.agent_id == party,
            ),
        )
    if status is not None:
        query = query.where(collecting_cases.c.status == status.value)
    if before is not None:
        query = query.where(collecting_cases.c.collecting_id < before)
    query = query.order_by(collecting_cases.c.collecting_id.desc()).limit(limit)
    return list(conn.execute(query).scalars())


def signatures_within(conn: Connection, collecting_id: str) -> dict[str, RecordSignature]:
    """Each signing party's own signature on its position."""
    rows = conn.execute(
        select(collecting_parties.c.agent_id, collecting_parties.c.signature)
        .where(collecting_parties.c.collecting_id == collecting_id)
        .where(collecting_parties.c.signature.is_not(None))
        .order_by(collecting_parties.c.ordinal)
    )
    return {agent: RecordSignature.model_validate_json(text) for agent, text in rows}


def _model(row: Any, parties: list[tuple[str, bool, bool]]) -> CollectingCase:
    return CollectingCase(
        collecting_id=row["collecting_id"],
        subject=row["subject"],
        task_type=row["task_type"],
        session_id=row["session_id"],
        parties=tuple(agent for agent, _, _ in parties),
        submitted=tuple(agent for agent, done, _ in parties if done),
        signed=tuple(agent for agent, _, signed in parties if signed),
        opened_by=row["opened_by"],
        opened_at=datetime.fromisoformat(row["opened_at"]),
        deadline_at=datetime.fromisoformat(row["deadline_at"]),
        status=CollectingStatus(row["status"]),
        case_id=row["case_id"],
        closed_at=None if row["closed_at"] is None else datetime.fromisoformat(row["closed_at"]),
        closed_reason=row["closed_reason"],
    )
