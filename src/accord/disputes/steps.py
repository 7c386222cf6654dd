"""Every step a stored dispute takes, inside the caller's write transaction.

:class:`DisputeSteps` is the dispute lifecycle's one owner of stored disputes: opening
(R1, R2, R3, R5, R18, R24, R33, R34), evidence (R33), a party's escalation (R17, the clock
restarts), withdrawal, a passed tier deadline (R4, R6, R9), and the hooks the negotiation,
panel, objection and compliance steps call (:meth:`move`, :meth:`resolve`,
:meth:`record_event`). Each checks its input first and raises an ``AccordError`` naming the
R-number; each status change goes through the lifecycle's table; each writes one signed
ledger event (R30) and its rows through :class:`~accord.disputes.recorder.DisputeRecorder`.
The service (:class:`~accord.disputes.service.Disputes`) opens the transactions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from accord.clock import isoformat
from accord.conflicts import TIER_ORDER, DisputeType, Severity, Tier
from accord.crypto import GENESIS
from accord.dcp07.chain import ChainLink, chain_link_at
from accord.dcp07.deadlines import DEADLINE_ACTOR, DeadlineStep, first_tier, next_tier
from accord.dcp07.dispute_record import DisputeRecord, PrecedentCitation, Subject
from accord.dcp07.documents import record_document
from accord.dcp07.evidence_item import EvidenceItem
from accord.dcp07.filing_rules import FilingPolicy, PastFiling, check_filing
from accord.dcp07.parties import Party
from accord.dcp07.resolution_record import ResolutionRecord
from accord.dcp07.statuses import FINAL, CaseStatus
from accord.dcp07.vocabulary import ResolutionType
from accord.deadlines import arm_many
from accord.deadlines.dispute_tier import (
    DisputeAtDeadline,
    cancel_tier_deadline,
    new_tier_deadline,
    rearm_tier_deadline,
)
from accord.disputes.events import DISPUTE_EVENTS, R30_EVENTS, RECOMMENDED_EVENT
from accord.disputes.evidence import EvidenceContent, submitted_evidence
from accord.disputes.filing import (
    MAX_DETAIL_TEXT,
    MAX_EVIDENCE_ITEMS,
    DisputeFiling,
    EvidenceInput,
    PartyInput,
)
from accord.disputes.recorder import (
    KEEP,
    DisputeRecorder,
    DisputeStep,
    Recorded,
    TierExitHook,
)
from accord.disputes.refusals import dispute_refused, not_a_party, not_found
from accord.disputes.rows import DisputeRow, load_dispute, load_disputes, past_filings
from accord.errors import AccordError
from accord.ids import new_id
from accord.ledger import Ledger
from accord.ledger.ledger import head_within
from accord.org import OrgChart, party
from accord.values import revised

_STEP_EVENTS = (frozenset(R30_EVENTS) - {"dispute_opened", "dispute_evidence_submitted"}) | {
    RECOMMENDED_EVENT
}


def status_at(tier: Tier) -> CaseStatus:
    """The status of a dispute escalated to ``tier``: ``appealing`` at human appeal, else
    ``escalated`` (it waits there until a panel forms or it is settled)."""
    return CaseStatus.APPEALING if tier is Tier.HUMAN_APPEAL else CaseStatus.ESCALATED


class DisputeSteps:
    """The steps of stored disputes (see the module doc); every method takes the caller's
    ``db.write()`` connection and the instant of the step."""

    def __init__(
        self,
        ledger: Ledger,
        *,
        org: OrgChart | None = None,
        policy: FilingPolicy | None = None,
        max_evidence_bytes: int,
        on_tier_exit: TierExitHook | None = None,
    ) -> None:
        """``on_tier_exit`` runs in the transaction of every step that takes a dispute off
        its tier (the ballot papers of that tier are withdrawn)."""
        self._recorder = DisputeRecorder(ledger, on_tier_exit)
        self._org = org
        self.policy = policy or FilingPolicy()
        self._max_evidence_bytes = max_evidence_bytes

    # --- reading ------------------------------------------------------------------------

    def stored(self, conn: Connection, dispute_id: str) -> DisputeRow:
        """The stored dispute; ``disputes.not_found`` if there is none."""
        row = load_dispute(conn, dispute_id)
        if row is None:
            raise not_found(dispute_id)
        return row

    def chain_link(self, conn: Connection) -> ChainLink:
        """The ``prev_hash`` pair of a record appended next in ``conn`` (a §6 resolution built
        inside the transaction that resolves with it)."""
        return chain_link_at(head_within(conn))

    # --- opening ------------------------------------------------------------------------

    def open_many(
        self,
        conn: Connection,
        filings: Sequence[tuple[DisputeFiling, Sequence[PrecedentCitation]]],
        at: datetime,
    ) -> list[Recorded]:
        """Open disputes, in order (each with the precedents it cites, R24): first tier by
        type (R2; critical may start at appeal, R18), evidence hashed and checked (R33), the
        flooding rules (R34, counting the earlier filings of the same call), the first tier
        deadline armed (R3). One refused: an error naming its index; nothing is written."""
        drafts = []
        for index, (filing, citations) in enumerate(filings):
            try:
                drafts.append(self._draft(filing, citations, at))
            except AccordError as exc:
                raise _at_index(exc, index, len(filings)) from None
        history = past_filings(
            conn, [d.complainant.agent_id for d, _ in drafts], at - self.policy.window
        )
        armed = []
        opening = []
        for index, (draft, step) in enumerate(drafts):
            filer = history[draft.complainant.agent_id]
            try:
                check_filing(draft, filer, now=at, policy=self.policy)
            except AccordError as exc:
                raise _at_index(exc, index, len(filings)) from None
            filer.append(PastFiling(filed_at=at))
            deadline = new_tier_deadline(
                draft.dispute_id, draft.current_escalation_level, draft.severity, at
            )
            armed.append(deadline)
            due = isoformat(deadline.due_at)
            opening.append((revised(draft, escalation_deadline=due), step))
        arm_many(conn, armed)
        return self._recorder.open_many(conn, opening, at)

    def _draft(
        self, filing: DisputeFiling, citations: Sequence[PrecedentCitation], at: datetime
    ) -> tuple[DisputeRecord, DisputeStep]:
        tier = first_tier(
            filing.dispute_type, filing.severity, start_at_appeal=filing.start_at_appeal
        )
        complainant = self._party(filing.complainant)
        respondents = [self._party(r) for r in filing.respondents]
        dispute_id = new_id("disp", at)
        when = isoformat(at)
        items, contents = self._evidence(
            filing.evidence, dispute_id, complainant.agent_id, when, at, "evidence"
        )
        subject = (
            Subject(description=filing.subject)
            if isinstance(filing.subject, str)
            else filing.subject
        )
        draft = DisputeRecord(
            dispute_id=dispute_id,
            dispute_type=DisputeType(filing.dispute_type),  # first_tier checked it (R1)
            severity=Severity(filing.severity),
            status=CaseStatus.OPEN,
            current_escalation_level=tier,
            complainant=complainant,
            respondents=tuple(respondents),
            subject=subject,
            evidence=tuple(items),
            precedents_cited=tuple(citations),
            timeline=(),
            escalation_deadline=None,
            opened_at=when,
            prev_hash=GENESIS,
            prev_hash_secondary=GENESIS,
        )
        step = DisputeStep(
            event_type="dispute_opened",
            actor=complainant.agent_id,
            details={
                "first_tier": tier.value,
                "start_at_appeal": filing.start_at_appeal,
                "conditions": list(filing.conditions),
            },
            evidence=items,
            contents=contents,
        )
        return draft, step

    # --- a party's steps ----------------------------------------------------------------

    def submit_evidence(
        self,
        conn: Connection,
        dispute_id: str,
        given: Sequence[EvidenceInput],
        *,
        by: str,
        at: datetime,
    ) -> Recorded:
        """Add evidence from party ``by`` (one event): each item's content hashed and checked
        (R33), stored once."""
        current = self._active(conn, dispute_id, "submit evidence to")
        self._party_of(current.record, by, "R5")
        if not 1 <= len(given) <= MAX_EVIDENCE_ITEMS:
            raise dispute_refused(
                "R33", "evidence", f"1 to {MAX_EVIDENCE_ITEMS} evidence items per submission",
                code="disputes.invalid", found=len(given),
            )  # fmt: skip
        items, contents = self._evidence(
            given,
            dispute_id,
            by,
            isoformat(at),
            at,
            "evidence",
            start=len(current.record.evidence),
        )
        step = DisputeStep(
            event_type="dispute_evidence_submitted",
            actor=by,
            details={"evidence": [record_document(item) for item in items]},
            evidence=items,
            contents=contents,
        )
        return self._recorder.record(conn, current, step, at)

    def escalate(
        self,
        conn: Connection,
        dispute_id: str,
        *,
        by: str,
        at: datetime,
        to_tier: Tier | str | None = None,
        reason: str = "",
    ) -> Recorded:
        """Party ``by`` escalates: to the next tier, or any tier above (R17: human appeal at
        any time); the clock restarts at the new tier."""
        current = self._active(conn, dispute_id, "escalate")
        record = current.record
        self._party_of(record, by, "R17")
        here = record.current_escalation_level
        target = self._target_tier(record, to_tier)
        check = status_at(target)
        deadline = rearm_tier_deadline(conn, dispute_id, target, record.severity, at)
        step = DisputeStep(
            event_type="dispute_escalated",
            actor=by,
            details={
                "from_level": here.value,
                "to_level": target.value,
                "by": "party",
                "reason": _reason(reason),
            },
            status=check,
            tier=target,
            escalation_deadline=deadline.due_at,
        )
        return self._recorder.record(conn, current, step, at, party_escalated=True)

    def withdraw(
        self, conn: Connection, dispute_id: str, *, by: str, at: datetime, reason: str = ""
    ) -> Recorded:
        """The complainant ends its own dispute (``withdrawn``, final); its deadline is
        cancelled."""
        current = self.stored(conn, dispute_id)
        record = current.record
        if by != record.complainant.agent_id:
            self._party_of(record, by, "R6")
            raise dispute_refused(
                "R6",
                "by",
                "only the complainant withdraws its dispute",
                code="disputes.not_complainant",
                dispute_id=dispute_id,
                agent_id=by,
            )
        step = DisputeStep(
            event_type="dispute_withdrawn",
            actor=by,
            details={"reason": _reason(reason)},
            status=CaseStatus.WITHDRAWN,
            escalation_deadline=None,
        )
        recorded = self._recorder.record(conn, current, step, at)
        cancel_tier_deadline(conn, dispute_id, at)
        return recorded

    # --- hooks for the tiers, panels, objections and compliance -------------------------

    def move(
        self,
        conn: Connection,
        dispute_id: str,
        to_status: CaseStatus,
        *,
        event_type: str,
        actor: str,
        at: datetime,
        details: Mapping[str, Any] | None = None,
        tier: Tier | None = None,
        rearm: bool = False,
    ) -> Recorded:
        """Move the dispute to ``to_status`` (the lifecycle checks the move, R6) with the R30
        event ``event_type``; ``tier`` changes its level; ``rearm`` restarts its tier clock."""
        self._check_event(event_type)
        if to_status in FINAL:
            raise dispute_refused(
                "R6",
                "to_status",
                "a dispute ends through resolve, withdraw or its deadlines",
                code="disputes.final_move",
                to_status=to_status.value,
            )
        current = self.stored(conn, dispute_id)
        due: Any = KEEP
        if rearm:
            level = tier or current.record.current_escalation_level
            due = rearm_tier_deadline(conn, dispute_id, level, current.record.severity, at).due_at
        step = DisputeStep(
            event_type=event_type,
            actor=actor,
            details=dict(details or {}),
            status=to_status,
            tier=tier,
            escalation_deadline=due,
        )
        return self._recorder.record(conn, current, step, at)

    def record_event(
        self,
        conn: Connection,
        dispute_id: str,
        event_type: str,
        *,
        actor: str,
        at: datetime,
        details: Mapping[str, Any] | None = None,
    ) -> Recorded:
        """Append the R30 event ``event_type`` (a proposal, a vote, an objection, a compliance
        check) to a dispute, its status unchanged."""
        self._check_event(event_type)
        current = self.stored(conn, dispute_id)
        step = DisputeStep(event_type=event_type, actor=actor, details=dict(details or {}))
        return self._recorder.record(conn, current, step, at)

    def resolve(
        self,
        conn: Connection,
        dispute_id: str,
        resolution: ResolutionRecord,
        *,
        actor: str,
        at: datetime,
        resolved_against: Sequence[str] = (),
    ) -> Recorded:
        """Resolve the dispute with the signed §6 ``resolution`` (R19): ``resolved``, final,
        its deadline cancelled; ``resolved_against`` (agent ids) feeds the filing score (R34)."""
        current = self.stored(conn, dispute_id)
        record = current.record
        if resolution.dispute_id != dispute_id:
            raise dispute_refused(
                "R19", "resolution.dispute_id", "the resolution names this dispute",
                code="disputes.resolution_mismatch", dispute_id=dispute_id,
                found=resolution.dispute_id,
            )  # fmt: skip
        if not resolution.signatures:
            raise dispute_refused(
                "R44", "resolution.signatures", "a resolution is signed",
                code="disputes.resolution_unsigned", dispute_id=dispute_id,
            )  # fmt: skip
        if resolution.resolution_type is ResolutionType.SPLIT_DECISION:
            raise dispute_refused(
                "R15", "resolution.resolution_type",
                "a split decision escalates to human appeal; it does not resolve",
                code="disputes.split_decision", dispute_id=dispute_id,
            )  # fmt: skip
        parties = {p.agent_id for p in record.parties}
        strangers = sorted(set(resolved_against) - parties)
        if strangers:
            raise dispute_refused(
                "R34", "resolved_against", "a dispute is resolved against its parties only",
                code="disputes.not_a_party", agents=strangers,
            )  # fmt: skip
        step = DisputeStep(
            event_type="dispute_resolved",
            actor=actor,
            details={
                "resolution": record_document(resolution),
                "resolved_against": sorted(set(resolved_against)),
            },
            status=CaseStatus.RESOLVED,
            escalation_deadline=None,
        )
        recorded = self._recorder.record(
            conn,
            current,
            step,
            at,
            resolution=resolution,
            resolved_against_complainant=record.complainant.agent_id in resolved_against,
        )
        cancel_tier_deadline(conn, dispute_id, at)
        return recorded

    # --- the tier deadline (the EscalateOnDeadline port) --------------------------------

    def at_deadline(self, conn: Connection, dispute_id: str) -> DisputeAtDeadline | None:
        return self.at_deadlines(conn, [dispute_id]).get(dispute_id)

    def at_deadlines(
        self, conn: Connection, dispute_ids: Sequence[str]
    ) -> dict[str, DisputeAtDeadline]:
        """The stored disputes among ``dispute_ids`` as their tier deadline sees them, by id
        (each carries its stored row, for :meth:`apply_deadlines`)."""
        found = {}
        for dispute_id, row in load_disputes(conn, dispute_ids).items():
            record = row.record
            found[dispute_id] = DisputeAtDeadline(
                dispute_id=dispute_id,
                tier=record.current_escalation_level,
                severity=record.severity,
                unresolved=record.status not in FINAL,
                party_escalated=row.party_escalated,
                stored=row,
            )
        return found

    def apply_deadline(
        self, conn: Connection, dispute_id: str, step: DeadlineStep, at: datetime
    ) -> Recorded:
        """R4/R9: escalate to the next tier (the sweeper arms its deadline, ``next_due``); R6:
        abandon when every deadline ran out and no party escalated; else note the lapse."""
        return self.apply_deadlines(conn, [(self.stored(conn, dispute_id), step)], at)[0]

    def apply_deadlines(
        self, conn: Connection, steps: Sequence[tuple[DisputeRow, DeadlineStep]], at: datetime
    ) -> list[Recorded]:
        """:meth:`apply_deadline` for several stored disputes (distinct), in order: their
        records signed and their ledger events appended together."""
        return self._recorder.record_many(
            conn, [(current, _deadline_change(step)) for current, step in steps], at
        )

    # --- helpers ------------------------------------------------------------------------

    def _party(self, given: PartyInput) -> Party:
        if isinstance(given, Party):
            return given
        return Party.model_validate(party(given, self._org))

    def _evidence(
        self,
        given: Sequence[EvidenceInput],
        dispute_id: str,
        by: str,
        when: str,
        at: datetime,
        field: str,
        *,
        start: int = 0,
    ) -> tuple[list[EvidenceItem], list[EvidenceContent]]:
        items: list[EvidenceItem] = []
        contents: list[EvidenceContent] = []
        for index, one in enumerate(given):
            item, content = submitted_evidence(
                one,
                evidence_id=f"evid:{dispute_id.removeprefix('disp:')}:{start + index + 1}",
                submitted_by=by,
                submitted_at=when,
                field=f"{field}[{index}]",
                max_bytes=self._max_evidence_bytes,
            )
            items.append(item)
            contents.append(content)
        return items, contents

    def _active(self, conn: Connection, dispute_id: str, action: str) -> DisputeRow:
        current = self.stored(conn, dispute_id)
        status = current.record.status
        if status in FINAL:
            raise dispute_refused(
                "R6", "dispute_id", f"cannot {action} a dispute that is {status.value} (final)",
                code="disputes.final", dispute_id=dispute_id, status=status.value,
            )  # fmt: skip
        return current

    def _party_of(self, record: DisputeRecord, agent_id: str, requirement: str) -> None:
        if agent_id not in {p.agent_id for p in record.parties}:
            raise not_a_party(record.dispute_id, agent_id, requirement)

    def _target_tier(self, record: DisputeRecord, to_tier: Tier | str | None) -> Tier:
        here = record.current_escalation_level
        if to_tier is None:
            above = next_tier(here)
            if above is None:
                raise dispute_refused(
                    "R38", "to_tier", "human appeal is the last tier: nothing is above it",
                    code="disputes.no_higher_tier", dispute_id=record.dispute_id,
                )  # fmt: skip
            return above
        try:
            target = Tier(to_tier)
        except ValueError:
            raise dispute_refused(
                "R38", "to_tier", f"one of {', '.join(t.value for t in TIER_ORDER)}",
                code="disputes.invalid", found=str(to_tier),
            ) from None  # fmt: skip
        if TIER_ORDER.index(target) <= TIER_ORDER.index(here):
            raise dispute_refused(
                "R17", "to_tier", f"a party escalates to a tier above {here.value}",
                code="disputes.not_higher", dispute_id=record.dispute_id, to_tier=target.value,
            )  # fmt: skip
        return target

    def _check_event(self, event_type: str) -> None:
        if event_type not in _STEP_EVENTS:
            raise dispute_refused(
                "R30", "event_type", f"one of {', '.join(sorted(_STEP_EVENTS))}",
                code="disputes.unknown_event", found=event_type,
            )  # fmt: skip


__all__ = ["DISPUTE_EVENTS", "DisputeSteps", "status_at"]


def _reason(reason: str) -> str:
    """A step's reason, bounded (it is signed into the ledger)."""
    if len(reason) > MAX_DETAIL_TEXT:
        raise dispute_refused(
            "R30", "reason", f"at most {MAX_DETAIL_TEXT:,} characters",
            code="limits.exceeded", found=len(reason),
        )  # fmt: skip
    return reason


def _deadline_change(step: DeadlineStep) -> DisputeStep:
    """The dispute step a passed tier deadline takes: R4/R9 escalate, R6 abandon, or note
    that a party's appeal lapsed."""
    here = step.from_tier.value
    if step.action == "escalate":
        assert step.to_tier is not None
        return DisputeStep(
            event_type="dispute_escalated",
            actor=DEADLINE_ACTOR,
            details={"from_level": here, "to_level": step.to_tier.value, "by": "deadline",
                     "reason": f"the {here} deadline passed unresolved (R4)"},
            status=status_at(step.to_tier),
            tier=step.to_tier,
            escalation_deadline=step.next_due,
        )  # fmt: skip
    if step.action == "abandon":
        return DisputeStep(
            event_type="dispute_abandoned",
            actor=DEADLINE_ACTOR,
            details={"from_level": here, "reason": "every deadline ran out with no "
                     "resolution and no party pursued escalation (R6)"},
            status=CaseStatus.ABANDONED,
            escalation_deadline=None,
        )  # fmt: skip
    return DisputeStep(
        event_type="dispute_deadline_lapsed",
        actor=DEADLINE_ACTOR,
        details={"from_level": here, "reason": "the human appeal deadline passed; "
                 "the people appealed to still owe a decision"},
        escalation_deadline=None,
    )  # fmt: skip


def _at_index(error: AccordError, index: int, count: int) -> AccordError:
    """``error`` naming which filing of a call of ``count`` it refused."""
    if count > 1:
        error.context = {**error.context, "index": index}
    return error
