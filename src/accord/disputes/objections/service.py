"""Objections to a resolution and the stays people order on them (R27–R29).

:meth:`Objections.object` files a party's signed §8 objection (``dispute_objection_filed``),
attached to the dispute's timeline and, when read, to the precedent bundle of its resolution
(derived: a signed bundle is never rewritten). The resolution stays in force (R28) unless a
human principal orders a stay (:meth:`Objections.order_stay`, signed with the principal's
reviewer key): the resolution's pending required actions are then set aside. A ``rights``
objection is routed to human appeal (R29): it is filed ``under_review``, its event names the
principals of every party (R16), and it waits in :meth:`Objections.awaiting_appeal` until a
principal orders a stay. Each call is one transaction.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Final, Protocol

from sqlalchemy import Connection

from accord.approvals import Reviewer, refuse_party_acting
from accord.clock import Clock
from accord.dcp07.documents import record_document
from accord.dcp07.parties import ObjectingParty
from accord.dcp07.refusal import refused
from accord.dcp07.vocabulary import ObjectionStatus, ObjectionType
from accord.disputes.objections.builder import build_objection
from accord.disputes.objections.filing import ObjectionFiling
from accord.disputes.objections.rows import (
    StoredObjection,
    StoredStay,
    insert_objection,
    insert_stay,
    objections_where,
    record_hash,
    stays_of,
)
from accord.disputes.objections.stay import MAX_REASON_CHARS, STAY_EVENT, stay_order
from accord.disputes.rule_ports import DisputeHooks
from accord.errors import AccordError, NotFound
from accord.ledger import Ledger
from accord.store.tables import dispute_objections

HUMAN_APPEAL: Final = "human_appeal"
_OBJECTION_ID = re.compile(r"obj:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_o = dispute_objections.c


class ObjectionNotFound(NotFound):
    """No objection has this id."""

    code = "objections.not_found"


class StaysResolutions(Protocol):
    """Compliance's side of a stay: the resolution's pending actions are set aside."""

    def stay_within(self, conn: Connection, resolution_id: str, now: datetime) -> object: ...


class Objections:
    """``Accord.disputes.objections``: file objections, order stays, read them."""

    def __init__(
        self,
        ledger: Ledger,
        clock: Clock,
        disputes: DisputeHooks,
        *,
        compliance: StaysResolutions | None = None,
    ) -> None:
        self._ledger = ledger
        self._db = ledger.db
        self._clock = clock
        self._disputes = disputes
        self._compliance = compliance

    def object(
        self,
        dispute_id: str,
        resolution_id: str,
        objecting_party: str,
        objection_type: ObjectionType | str,
        grounds: Mapping[str, Any],
        remedy: Mapping[str, Any],
    ) -> StoredObjection:
        """File ``objecting_party``'s objection to the dispute's resolution ``resolution_id``.

        Refused (nothing written): not the dispute's resolution, not a party (R27), a bad
        type, grounds or remedy."""
        filing = ObjectionFiling.read(
            {"objection_type": objection_type, "grounds": grounds, "requested_remedy": remedy}
        )
        rights = filing.objection_type is ObjectionType.RIGHTS
        with self._disputes.transaction() as conn:
            view = self._disputes.show_within(conn, dispute_id)
            resolution = view.resolution
            if resolution is None or resolution.resolution_id != resolution_id:
                raise refused(
                    "R27",
                    "resolution_id",
                    "an objection answers the dispute's resolution",
                    code="objections.not_the_resolution",
                    dispute_id=dispute_id,
                    resolution_id=resolution_id,
                    found=None if resolution is None else resolution.resolution_id,
                )
            party = next((p for p in view.record.parties if p.agent_id == objecting_party), None)
            if party is None:
                raise refused(
                    "R27",
                    "objecting_party",
                    "any party may object — and only a party",
                    code="objections.not_a_party",
                    dispute_id=dispute_id,
                    agent_id=objecting_party,
                )
            record = build_objection(
                dispute_id=dispute_id,
                resolution_id=resolution_id,
                objecting_party=ObjectingParty(
                    agent_id=party.agent_id, principal_id=party.principal_id
                ),
                objection_type=filing.objection_type,
                grounds=filing.record_grounds(),
                requested_remedy=filing.record_remedy(),
                status=ObjectionStatus.UNDER_REVIEW if rights else ObjectionStatus.FILED,
                at=self._clock.now(),
                link=self._disputes.chain_link_within(conn),
                signer=self._ledger.signer,
            )
            principals = sorted({p.principal_id for p in view.record.parties})
            after = self._disputes.record_event_within(
                conn,
                dispute_id,
                "dispute_objection_filed",
                actor=party.agent_id,
                details={
                    "requirement": "R29" if rights else "R27",
                    "objection": record_document(record),
                    "routed_to": HUMAN_APPEAL if rights else None,
                    "principals": principals if rights else [],
                    "resolution_in_force": True,
                },
            )
            stored = StoredObjection(
                record=record,
                record_hash=record_hash(record),
                ledger_seq=after.ledger_seqs[-1],
                routed_to=HUMAN_APPEAL if rights else None,
            )
            insert_objection(conn, stored)
        return stored

    def order_stay(self, objection_id: str, reviewer: Reviewer, reason: str = "") -> StoredStay:
        """A human principal (``reviewer``, authenticated by its reviewer key) stays the
        resolution ``objection_id`` objects to (R28): signed ``dispute_stay_ordered``, the
        resolution's pending actions set aside. Refused: no reviewer key, a principal who is or
        owns a party (``approvals.conflicted_decider``), a second stay."""
        if reviewer.signer is None:
            raise AccordError(
                "a stay is signed with the principal's reviewer key, not taken from an OS login",
                code="objections.stay_unsigned",
                field="reviewer",
                rule="a human principal's reviewer key signs the stay (R28)",
                requirement="R28",
            )
        if len(reason) > MAX_REASON_CHARS:
            raise refused(
                "R28", "reason", f"at most {MAX_REASON_CHARS} characters", code="objections.invalid"
            )
        with self._disputes.transaction() as conn:
            objection = self._get(conn, objection_id)
            if objection.stay is not None:
                raise AccordError(
                    f"{objection_id} already has a stay, ordered by {objection.stay.ordered_by}",
                    code="objections.already_stayed",
                    objection_id=objection_id,
                    field="objection_id",
                    rule="one stay per objection",
                    requirement="R28",
                )
            record = objection.record
            view = self._disputes.show_within(conn, record.dispute_id)
            parties = view.record.parties
            refuse_party_acting(
                reviewer.principal_id,
                (p.agent_id for p in parties),
                {p.agent_id: p.principal_id for p in parties},
                act="order a stay in",
                case_id=record.dispute_id,
                requirement="R28",
                objection_id=objection_id,
            )
            now = self._clock.now()
            order = stay_order(
                objection_id=objection_id,
                dispute_id=record.dispute_id,
                resolution_id=record.resolution_id,
                reviewer=reviewer,
                at=now,
                reason=reason,
            )
            sealed = self._ledger.append_within(conn, [(STAY_EVENT, order.signed_by(reviewer))])
            stay = StoredStay(
                **order.model_dump(exclude={"record_type", "requirement"}), ledger_seq=sealed[0].seq
            )
            insert_stay(conn, stay)
            if self._compliance is not None:
                self._compliance.stay_within(conn, record.resolution_id, now)
        return stay

    # --- reading -----------------------------------------------------------------------

    def get(self, objection_id: str) -> StoredObjection:
        """One objection with its stay (``objections.not_found``)."""
        with self._db.read() as conn:
            return self._get(conn, objection_id)

    def of_dispute(self, dispute_id: str) -> builtins.list[StoredObjection]:
        """The dispute's objections, oldest first (R28: attached to the dispute)."""
        with self._db.read() as conn:
            return objections_where(conn, _o.dispute_id == dispute_id)

    def awaiting_appeal(self) -> builtins.list[StoredObjection]:
        """Rights objections routed to human appeal (R29) on which no stay was ordered."""
        with self._db.read() as conn:
            routed = objections_where(conn, _o.routed_to == HUMAN_APPEAL)
        return [objection for objection in routed if objection.stay is None]

    def in_force(self, resolution_id: str) -> bool:
        """Whether the resolution is in force: it is, unless a stay was ordered (R28)."""
        with self._db.read() as conn:
            return not stays_of(conn, [resolution_id])

    def _get(self, conn: Connection, objection_id: str) -> StoredObjection:
        if not _OBJECTION_ID.fullmatch(objection_id):
            raise refused(
                "R27",
                "objection_id",
                "obj: followed by a lower-case UUID",
                code="objections.invalid",
                found=objection_id[:80],
            )
        found = objections_where(conn, _o.objection_id == objection_id)
        if not found:
            raise ObjectionNotFound(
                f"no objection {objection_id}", objection_id=objection_id, field="objection_id"
            )
        return found[0]
