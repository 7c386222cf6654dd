"""One step of a dispute, recorded: the §4 record re-signed, its ledger event, its rows.

Every change to a stored dispute goes through :meth:`DisputeRecorder.record`: the new status
is checked by the lifecycle's one table (:func:`~accord.cases.lifecycle.check_transition`,
R6), the step is appended to the record's timeline, the record is chained to the ledger's
head (``prev_hash``) and signed with the service key under ``DCP-DISPUTE-SIG-v2`` (R36), the
step's ledger event (:func:`~accord.disputes.events.dispute_event`, R30) is
appended, and the dispute's rows are written — all in the caller's transaction. A step that
takes a dispute off its tier (a new level, or a final status) is handed to the
``on_tier_exit`` hook in the same transaction (the ballot papers of that tier are withdrawn,
:mod:`accord.disputes.tiers.ballot_withdrawal`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from accord.clock import isoformat
from accord.conflicts import Tier
from accord.dcp07.chain import ChainLink, chain_link_at
from accord.dcp07.dispute_record import DisputeRecord, TimelineEvent
from accord.dcp07.documents import record_document
from accord.dcp07.evidence_item import EvidenceItem
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.signing import signed
from accord.dcp07.statuses import FINAL, CaseStatus, check_transition
from accord.disputes.events import dispute_event
from accord.disputes.evidence import EvidenceContent, store_contents
from accord.disputes.rows import (
    DisputeRow,
    insert_disputes,
    insert_events,
    insert_evidence,
    update_dispute,
    update_disputes,
)
from accord.disputes.tiers.ballot_withdrawal import TierExit
from accord.ledger import ChainHead, Ledger
from accord.values import revised

KEEP: Any = object()
"""A step leaves the escalation deadline as it is (the default)."""
TierExitHook = Callable[[Connection, Sequence[TierExit]], None]
"""Runs in the step's transaction with the disputes a step took off their tier."""


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
    """The dispute after a step (``document``: its JSON values), and the ledger entry that
    signs it."""

    record: DisputeRecord
    document: dict[str, Any]
    ledger_seq: int


class DisputeRecorder:
    """Records dispute steps into the ledger and the dispute tables (see the module doc)."""

    def __init__(self, ledger: Ledger, on_tier_exit: TierExitHook | None = None) -> None:
        self._ledger = ledger
        self._db = ledger.db
        self._on_tier_exit = on_tier_exit

    def open_many(
        self, conn: Connection, opening: Sequence[tuple[DisputeRecord, DisputeStep]], at: datetime
    ) -> list[Recorded]:
        """Record new disputes (each draft validated, unsigned, status ``open``, no timeline
        yet), their ledger events sealed in order and every table written with one statement."""
        built: list[tuple[DisputeRecord, dict[str, Any]]] = []
        builders = [self._builder(_opened(draft), step, at, built) for draft, step in opening]
        sealed = self._ledger.append_linked_within(conn, builders)
        done = [Recorded(r, d, s.seq) for (r, d), s in zip(built, sealed, strict=True)]
        insert_disputes(conn, self._db, [(d.record, d.document, d.ledger_seq) for d in done])
        self._write_parts(conn, done, [step for _, step in opening])
        return done

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
        """Record ``step`` on the stored dispute ``current`` (its status change checked, R6;
        the changed record validated whole)."""
        built: list[tuple[DisputeRecord, dict[str, Any]]] = []
        sealed = self._ledger.append_linked_within(
            conn, [self._builder(_changed(_after(current, step)), step, at, built)]
        )
        (record, document), seq = built[0], sealed[0].seq
        recorded = Recorded(record, document, seq)
        update_dispute(
            conn,
            record,
            document,
            version=current.version,
            updated_at=isoformat(at),
            party_escalated=party_escalated,
            resolution=resolution,
            resolved_against_complainant=resolved_against_complainant,
        )
        self._write_parts(conn, [recorded], [step])
        self._exited(conn, [(current, recorded, step)])
        return recorded

    def record_many(
        self, conn: Connection, changes: Sequence[tuple[DisputeRow, DisputeStep]], at: datetime
    ) -> list[Recorded]:
        """Record one step on each of several stored disputes (distinct), in order, as
        :meth:`record` would one after another: their ledger events sealed in one append,
        each table written with one statement."""
        if not changes:
            return []
        built: list[tuple[DisputeRecord, dict[str, Any]]] = []
        builders = [
            self._builder(_changed(_after(current, step)), step, at, built)
            for current, step in changes
        ]
        sealed = self._ledger.append_linked_within(conn, builders)
        done = [Recorded(r, d, s.seq) for (r, d), s in zip(built, sealed, strict=True)]
        versions = [current.version for current, _ in changes]
        update_disputes(
            conn,
            [(d.record, d.document, v) for d, v in zip(done, versions, strict=True)],
            updated_at=isoformat(at),
        )
        self._write_parts(conn, done, [step for _, step in changes])
        self._exited(
            conn, [(current, d, step) for (current, step), d in zip(changes, done, strict=True)]
        )
        return done

    def _exited(
        self, conn: Connection, steps: Sequence[tuple[DisputeRow, Recorded, DisputeStep]]
    ) -> None:
        """Hand the disputes these steps took off their tier to the ``on_tier_exit`` hook."""
        if self._on_tier_exit is None:
            return
        exits = [
            TierExit(
                dispute_id=before.record.dispute_id,
                tier=before.record.current_escalation_level,
                event_type=step.event_type,
                actor=step.actor,
                status=after.record.status.value,
            )
            for before, after, step in steps
            if after.record.current_escalation_level is not before.record.current_escalation_level
            or (after.record.status in FINAL and before.record.status not in FINAL)
        ]
        if exits:
            self._on_tier_exit(conn, exits)

    def _builder(
        self,
        make: Callable[[ChainLink, TimelineEvent], DisputeRecord],
        step: DisputeStep,
        at: datetime,
        built: list[tuple[DisputeRecord, dict[str, Any]]],
    ) -> Callable[[ChainHead], tuple[str, dict[str, Any]]]:
        """Builds the step's ledger event from the head it follows: the §4 record with the
        step on its timeline, chained to that head and signed (kept in ``built``)."""
        when = isoformat(at)
        event = TimelineEvent(event=step.event_type, timestamp=when, actor=step.actor)

        def build(head: ChainHead) -> tuple[str, dict[str, Any]]:
            record = signed(make(chain_link_at(head), event), self._ledger.signer)
            document = record_document(record)
            built.append((record, document))
            return dispute_event(
                step.event_type, record, actor=step.actor, at=when, details=step.details,
                document=document,
            ).event()  # fmt: skip

        return build

    def _write_parts(
        self, conn: Connection, done: Sequence[Recorded], steps: Sequence[DisputeStep]
    ) -> None:
        insert_events(conn, self._db, [(d.record, d.ledger_seq) for d in done])
        with_evidence = [(d, s) for d, s in zip(done, steps, strict=True) if s.evidence]
        if with_evidence:
            store_contents(conn, self._db, [c for _, s in with_evidence for c in s.contents])
            insert_evidence(
                conn,
                self._db,
                [(d.record.dispute_id, s.evidence, d.ledger_seq) for d, s in with_evidence],
            )


def _after(current: DisputeRow, step: DisputeStep) -> dict[str, Any]:
    """The stored record's JSON values with ``step``'s changes (its status change checked by
    the lifecycle, R6); the timeline and chain link are added when it is built."""
    before = current.record
    data = record_document(before)
    if step.status is not None:
        check_transition(
            before.status,
            step.status,
            before.dispute_id,
            at_last_tier=before.current_escalation_level is Tier.HUMAN_APPEAL,
        )
        data["status"] = step.status.value
    if step.tier is not None:
        data["current_escalation_level"] = step.tier.value
    if step.escalation_deadline is not KEEP:
        due = step.escalation_deadline
        data["escalation_deadline"] = None if due is None else isoformat(due)
    if step.evidence:
        data["evidence"] = [*data["evidence"], *(record_document(e) for e in step.evidence)]
    return data


def _opened(draft: DisputeRecord) -> Callable[[ChainLink, TimelineEvent], DisputeRecord]:
    """A new dispute's record: the validated draft with its first timeline event and chain
    link, each validated by its own model (the record's invariants do not read them)."""

    def make(link: ChainLink, event: TimelineEvent) -> DisputeRecord:
        return revised(
            draft,
            timeline=(event,),
            prev_hash=link.prev_hash,
            prev_hash_secondary=link.prev_hash_secondary,
            signature=None,
        )

    return make


def _changed(data: dict[str, Any]) -> Callable[[ChainLink, TimelineEvent], DisputeRecord]:
    """A stored dispute's record after a step, validated whole."""

    def make(link: ChainLink, event: TimelineEvent) -> DisputeRecord:
        return DisputeRecord.model_validate(
            {
                **data,
                "timeline": [*data["timeline"], record_document(event)],
                "prev_hash": link.prev_hash,
                "prev_hash_secondary": link.prev_hash_secondary,
                "signature": None,
            }
        )

    return make
