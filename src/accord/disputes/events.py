"""The ledger record of every event of a DCP-07 dispute filed through ``Accord.disputes``.

One record type, one builder (:func:`dispute_event`). Each event of a dispute — opened,
evidence submitted, escalated, resolved, withdrawn, abandoned, and the events the negotiation,
panel, objection and compliance steps record — is one signed, chained ledger entry whose
``event_type`` is the event (R30, R43) and whose record carries:

* ``protocol`` ``dcp-07``, ``dispute_id``, ``actor`` (who took the step; ``accord:deadline``
  for an automatic escalation) and ``at`` (the injected clock's time);
* ``details``: what the step says (the evidence item, the tiers, the §6 resolution …);
* ``dispute_record``: the dispute's §4 record as it stands after the step, signed under
  ``DCP-DISPUTE-SIG-v2`` and chained (``prev_hash``) to the ledger entry before this one.

These records carry no settle ``log``, so the case audit (which folds settle's records of the
same event types by ``dispute_id``) leaves them to the dispute tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from accord.dcp07.dispute_record import DisputeRecord
from accord.dcp07.documents import record_document
from accord.dcp07.fields import DisputeId, Identifier, Timestamp
from accord.ledger.signed_record import Built

R30_EVENTS: Final = (
    "dispute_opened",
    "dispute_evidence_submitted",
    "dispute_negotiation_proposal",
    "dispute_escalated",
    "arbitration_panel_formed",
    "arbitration_vote_cast",
    "dispute_resolved",
    "dispute_objection_filed",
    "dispute_compliance_verified",
    "dispute_compliance_failed",
)
"""The ten audit event types of DCP-07 §9 (R30)."""

RECOMMENDED_EVENT: Final = "arbitration_resolution_recommended"
ACCORD_EVENTS: Final = (
    "dispute_withdrawn",
    "dispute_abandoned",
    "dispute_deadline_lapsed",
    RECOMMENDED_EVENT,
)
"""Lifecycle events R30's list has no type for, which Accord records too: a party withdrew
its dispute, every deadline ran out (R6 ``abandoned``), a human-appeal deadline lapsed while
people still owe a decision, a panel's signed ``recommended_resolution`` now awaits the
parties (R15)."""

DISPUTE_EVENTS: Final = frozenset(R30_EVENTS + ACCORD_EVENTS)
"""Every ``event_type`` a dispute event may carry."""

PROTOCOL: Final = "dcp-07"


class DisputeEvent(BaseModel):
    """One dispute event as signed into the ledger (built by :func:`dispute_event`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    event_type: str
    protocol: Literal["dcp-07"] = PROTOCOL
    dispute_id: DisputeId
    actor: Identifier
    at: Timestamp
    details: Built[dict[str, Any]]
    """JSON values; the ledger's canonical form refuses anything else when it is appended."""
    dispute_record: Built[dict[str, Any]]
    """The signed §4 record's document, made by ``record_document`` from the validated record."""

    @field_validator("event_type")
    @classmethod
    def _known_event(cls, value: str) -> str:
        if value not in DISPUTE_EVENTS:
            raise ValueError(
                f"{value!r} is not a dispute event ({', '.join(sorted(DISPUTE_EVENTS))})"
            )
        return value

    def record(self) -> dict[str, Any]:
        """The record as signed (everything but the event type, which is the entry's)."""
        return {
            "protocol": self.protocol,
            "dispute_id": self.dispute_id,
            "actor": self.actor,
            "at": self.at,
            "details": self.details,
            "dispute_record": self.dispute_record,
        }

    def event(self) -> tuple[str, dict[str, Any]]:
        """``(event type, record)`` for ``Ledger.append_within``."""
        return self.event_type, self.record()


def dispute_event(
    event_type: str,
    record: DisputeRecord,
    *,
    actor: str,
    at: str,
    details: Mapping[str, Any],
    document: dict[str, Any] | None = None,
) -> DisputeEvent:
    """The ledger record of ``event_type`` for the dispute now standing as ``record`` (signed;
    ``document``: its ``record_document``, when the caller already made it)."""
    if record.signature is None:
        raise ValueError("a dispute event carries the signed dispute record")
    return DisputeEvent(
        event_type=event_type,
        dispute_id=record.dispute_id,
        actor=actor,
        at=at,
        details=dict(details),
        dispute_record=record_document(record) if document is None else document,
    )
