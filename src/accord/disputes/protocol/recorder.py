"""One step of a dispute, recorded: the §4 record re-signed, its ledger event, its rows.

Every change to a stored dispute goes through :meth:`DisputeRecorder.record`: the new status
is checked by the lifecycle's one table (:func:`~accord.disputes.lifecycle.check_transition`,
R6), the step is appended to the record's timeline, the record is chained to the ledger's
head (``prev_hash``) and signed with the service key under ``DCP-DISPUTE-SIG-v2`` (R36), the
step's ledger event (:func:`~accord.disputes.records.dispute_event.dispute_event`, R30) is
appended, and the dispute's rows are written — all in the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from accord.clock import isoformat
from accord.conflicts import Tier
from accord.disputes.dcp.chain import chain_link_at
from accord.disputes.dcp.dispute_record import DisputeRecord, TimelineEvent
from accord.disputes.dcp.documents import record_document
from accord.disputes.dcp.evidence_item import EvidenceItem
from accord.disputes.dcp.resolution_record import ResolutionRecord
from accord.disputes.dcp.signing import signed
from accord.disputes.lifecycle import CaseStatus, check_transition
from accord.disputes.protocol.evidence import EvidenceContent, store_contents
from accord.disputes.protocol.rows import (
    DisputeRow,
    insert_dispute,
    insert_event,
    insert_evidence,
    update_dispute,
)
from accord.disputes.records.dispute_event import dispute_event
from accord.ledger import Ledger
from accord.ledger.ledger import head_within

KEEP: Any = object()
"""A step leaves the escalation deadline as it is (the default)."""


@dataclass(frozen=True)
class DisputeStep:
    """What one event changes: its type and actor, what it says, and the new status, tier,
    escalation deadline and evidence (each left as it is when not given)."""

    event_type: str
    actor: str
    details: Mapping[str, Any] = field(default_factory=dict)
    status: CaseStatus | None = None
    tier: Tier | None = None
    escalation_deadline: datetime | None = KEEP
    evidence: Sequence[EvidenceItem] = ()
    contents: Sequence[EvidenceContent] = ()


@dataclass(frozen=True, slots=True)
class Recorded:
    """The dispute after a step, and the ledger entry that signs it."""

    record: DisputeRecord
    ledger_seq: int


class DisputeRecorder:
    """Records dispute steps into the ledger and the dispute tables (see the module doc)."""

    def __init__(self, ledger: Ledger) -> None:
        self._ledger = ledger
        self._db = ledger.db

    def open(
        self, conn: Connection, draft: DisputeRecord, step: DisputeStep, at: datetime
    ) -> Recorded:
        """Record a new dispute (``draft``: unsigned, status ``open``, no timeline yet)."""
        recorded = self._sign_and_append(conn, record_document(draft), step, at)
        insert_dispute(conn, self._db, recorded.record)
        self._write_parts(conn, recorded, step)
        return recorded

    def record(
        self,
        conn: Connection,
        current: DisputeRow,
        step: DisputeStep,
        at: datetime,
        *,
        party_escalated: bool | None = None,
        resolution: ResolutionRecord | None = None,
        resolved_against_complainant: bool | None = None,
    ) -> Recorded:
        """Record ``step`` on the stored dispute ``current`` (its status change checked, R6)."""
        before = current.record
        data = record_document(before)
        if step.status is not None:
            check_transition(before.status, step.status, before.dispute_id)
            data["status"] = step.status.value
        if step.tier is not None:
            data["current_escalation_level"] = step.tier.value
        if step.escalation_deadline is not KEEP:
            due = step.escalation_deadline
            data["escalation_deadline"] = None if due is None else isoformat(due)
        if step.evidence:
            data["evidence"] = [*data["evidence"], *(record_document(e) for e in step.evidence)]
        recorded = self._sign_and_append(conn, data, step, at)
        update_dispute(
            conn,
            recorded.record,
            version=current.version,
            updated_at=isoformat(at),
            party_escalated=party_escalated,
            resolution=resolution,
            resolved_against_complainant=resolved_against_complainant,
        )
        self._write_parts(conn, recorded, step)
        return recorded

    def _sign_and_append(
        self, conn: Connection, data: dict[str, Any], step: DisputeStep, at: datetime
    ) -> Recorded:
        when = isoformat(at)
        link = chain_link_at(head_within(conn))
        event = TimelineEvent(event=step.event_type, timestamp=when, actor=step.actor)
        data["timeline"] = [*data["timeline"], record_document(event)]
        data["prev_hash"] = link.prev_hash
        data["prev_hash_secondary"] = link.prev_hash_secondary
        data["signature"] = None
        record = signed(DisputeRecord.model_validate(data), self._ledger.signer)
        built = dispute_event(
            step.event_type, record, actor=step.actor, at=when, details=step.details
        )
        sealed = self._ledger.append_within(conn, [built.event()])
        return Recorded(record, sealed[0].seq)

    def _write_parts(self, conn: Connection, recorded: Recorded, step: DisputeStep) -> None:
        record = recorded.record
        insert_event(conn, self._db, record, recorded.ledger_seq)
        if step.evidence:
            store_contents(conn, self._db, step.contents)
            insert_evidence(conn, self._db, record.dispute_id, step.evidence, recorded.ledger_seq)
