"""What the ledger signed about each DCP-07 dispute, folded from its ``dcp-07`` events.

Every dispute event (``records/dispute_event.py``) carries the §4 record as it stands after
the step; the fold keeps, per dispute, only what the dispute tables copy: the latest record,
each event's place, the evidence's entries, the §6 resolution, votes, the panel's formation,
objections, compliance checks. Flags and stays are entries of their own, folded alongside.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from accord.disputes.compliance.flags import NonComplianceFlag
from accord.disputes.events import DISPUTE_EVENTS, PROTOCOL, RECOMMENDED_EVENT
from accord.disputes.objections.stay import STAY_EVENT

FLAG_EVENT: Final = NonComplianceFlag.event_type
#: Every ledger event the dispute tables are checked against.
SIGNED_EVENTS: Final = tuple(sorted(DISPUTE_EVENTS | {FLAG_EVENT, STAY_EVENT}))
COMPLIANCE_EVENTS: Final = ("dispute_compliance_verified", "dispute_compliance_failed")
PARTY_STEP_EVENT: Final = "dispute_negotiation_proposal"
PROPOSAL_STEP: Final = "panel_proposal"
ACCEPTANCE_STEP: Final = "recommendation_acceptance"


@dataclass(frozen=True, slots=True)
class SignedEvent:
    """One dispute event: its entry, type, actor, time, and the record's status and tier."""

    seq: int
    event_type: str
    actor: Any
    at: Any
    status: Any
    tier: Any


@dataclass(frozen=True, slots=True)
class SignedStep:
    """A signed event's details, with its entry and time."""

    seq: int
    at: Any
    details: Mapping[str, Any]


@dataclass
class SignedDispute:
    """The latest signed state of one dispute (see the module doc)."""

    opened_seq: int | None = None
    record: dict[str, Any] = field(default_factory=dict)
    events: dict[int, SignedEvent] = field(default_factory=dict)
    """Timeline position → the event that put it there."""
    evidence_seq: dict[str, int] = field(default_factory=dict)
    party_escalated: bool = False
    resolution: dict[str, Any] | None = None
    resolved: SignedStep | None = None
    resolved_by: Any = None
    """The actor of the dispute_resolved event."""
    split: SignedStep | None = None
    """The dispute_escalated event of a panel's split decision (it carries the tally)."""
    votes: dict[tuple[str, str], SignedStep] = field(default_factory=dict)
    """(panel id, member) → the vote event."""
    vote_steps: list[SignedStep] = field(default_factory=list)
    """Every vote event, in order (a second vote in one member's name is checked too)."""
    panel: SignedStep | None = None
    proposals: list[SignedStep] = field(default_factory=list)
    """The members' signed ``panel_proposal`` steps, in order (the last one is voted on)."""
    recommended: SignedStep | None = None
    """The ``arbitration_resolution_recommended`` event (a recommendation awaiting parties)."""
    acceptances: list[SignedStep] = field(default_factory=list)
    """The parties' signed ``recommendation_acceptance`` steps, in order."""
    objections: dict[str, SignedStep] = field(default_factory=dict)
    compliance: dict[str, tuple[str, SignedStep]] = field(default_factory=dict)
    """Action id → (event type, the check's event)."""
    party_steps: list[tuple[SignedStep, Any]] = field(default_factory=list)
    """The party-signed tier-1 steps and coin-flip steps, in order, with the tier the dispute
    stood at."""

    @property
    def latest(self) -> SignedEvent:
        return self.events[max(self.events)]

    def add(self, seq: int, event_type: str, record: Mapping[str, Any]) -> None:
        document = record.get("dispute_record")
        if not isinstance(document, dict):
            return
        if self.opened_seq is None:
            if event_type != "dispute_opened":
                return  # events before the opening back no row
            self.opened_seq = seq
        self.record = document
        timeline = document.get("timeline")
        position = len(timeline) - 1 if isinstance(timeline, list) else -1
        self.events[position] = SignedEvent(
            seq,
            event_type,
            record.get("actor"),
            record.get("at"),
            document.get("status"),
            document.get("current_escalation_level"),
        )
        evidence = document.get("evidence")
        for item in evidence if isinstance(evidence, list) else ():
            if isinstance(item, dict):
                self.evidence_seq.setdefault(str(item.get("evidence_id")), seq)
        details = record.get("details")
        if not isinstance(details, dict):
            return
        step = SignedStep(seq, record.get("at"), details)
        if event_type == "dispute_escalated":
            self.party_escalated = self.party_escalated or details.get("by") == "party"
            if isinstance(details.get("tally"), dict):
                self.split = step
        elif event_type == "dispute_resolved":
            resolution = details.get("resolution")
            self.resolution = resolution if isinstance(resolution, dict) else None
            self.resolved = step
            self.resolved_by = record.get("actor")
        elif event_type == "arbitration_vote_cast":
            vote = details.get("vote")
            if isinstance(vote, dict):
                self.votes[(str(vote.get("panel_id")), str(vote.get("agent_id")))] = step
            self.vote_steps.append(step)
        elif event_type == "arbitration_panel_formed":
            self.panel = step
        elif event_type == "dispute_objection_filed":
            objection = details.get("objection")
            if isinstance(objection, dict):
                self.objections[str(objection.get("objection_id"))] = step
        elif event_type in COMPLIANCE_EVENTS:
            self.compliance[str(details.get("action_id"))] = (event_type, step)
        elif event_type == RECOMMENDED_EVENT:
            self.recommended = step
        elif event_type == PARTY_STEP_EVENT:
            self.party_steps.append((step, document.get("current_escalation_level")))
            if details.get("step") == PROPOSAL_STEP:
                self.proposals.append(step)
            elif details.get("step") == ACCEPTANCE_STEP:
                self.acceptances.append(step)

    def question_in_force(self, before: int | None = None) -> SignedStep | None:
        """The signed step whose ``question``/``resolution_hash`` the panel voted on (the
        last proposal, else the formation), as of entry ``before`` when given."""
        steps = [s for s in (self.panel, *self.proposals) if s is not None]
        if before is not None:
            steps = [s for s in steps if s.seq < before]
        return max(steps, key=lambda s: s.seq) if steps else None


@dataclass
class SignedLedger:
    """Every dispute's signed state, and the flag and stay entries."""

    disputes: dict[str, SignedDispute] = field(default_factory=dict)
    flags: dict[str, tuple[int, Mapping[str, Any]]] = field(default_factory=dict)
    """Flag id → (its entry, the signed flag)."""
    stays: dict[str, list[tuple[int, Mapping[str, Any]]]] = field(default_factory=dict)
    """Resolution id → its signed stay orders (entry, order)."""


def signed_ledger(records: Iterable[tuple[int, str, Mapping[str, Any]]]) -> SignedLedger:
    """Fold ledger records (``records_within(conn, SIGNED_EVENTS)``) into :class:`SignedLedger`.
    Settle's records of the same event types carry no ``dcp-07`` protocol and are skipped."""
    found = SignedLedger()
    for seq, event_type, record in records:
        if event_type == FLAG_EVENT:
            found.flags[str(record.get("flag_id"))] = (seq, record)
        elif event_type == STAY_EVENT:
            found.stays.setdefault(str(record.get("resolution_id")), []).append((seq, record))
        elif record.get("protocol") == PROTOCOL:
            dispute_id = record.get("dispute_id")
            if isinstance(dispute_id, str):
                found.disputes.setdefault(dispute_id, SignedDispute()).add(seq, event_type, record)
    return found
