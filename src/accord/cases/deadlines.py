"""A settle case above tier 1 is a DCP-07 dispute in ``escalated``: its tier deadlines (R3, R4,
R6, R9), on the one deadline mechanism filed disputes use.

``settle`` arms the deadline of the tier it leaves a case at (:func:`case_tier_deadline`, kind
``case_tier``, the R3 span of :mod:`accord.dcp07.deadlines`) in the transaction that
stores the case. The sweeper fires it with the shared
:class:`~accord.deadlines.dispute_tier.DisputeTierHandler` over :class:`CaseDeadlines`, the
:class:`~accord.deadlines.dispute_tier.EscalateOnDeadline` port over stored cases: at the
deadline the case escalates to human appeal (R4) and gets an approval item, the clock
restarting there (R9); at human appeal's deadline it is abandoned (R6: settle cases never
escalate by a party's hand). Each step goes through :func:`~accord.cases.lifecycle.transition`
and signs the record type's one builder (``dispute_escalated``, ``dispute_abandoned``).

One deadline per case at a time. At human appeal an approval item may carry its own §12.4
timeout (the configured approval policy): then *that* timeout is the appeal tier's deadline and
no ``case_tier`` row is armed beside it (the item's expiry already abandons the case through the
approval bridge), so two deadlines never fire on one case with contradicting effects. An item
without a timeout of its own (``wait``, and every item a deadline escalation queues) leaves
the case's ``case_tier`` row to end it: at it the item is withdrawn and the case abandoned.
A resolution (a person's decision, a probe) cancels the row (:func:`cancel_case_deadline`).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection

from accord.approvals import (
    CASE_TIER_WORDS,
    ActingDeadline,
    ApprovalItem,
    ApprovalQueue,
    CaseTierAction,
    WaitForever,
    acting_deadline,
)
from accord.approvals.timeout_handler import APPROVAL_TIMEOUT
from accord.cases.approval import request_case_approval
from accord.cases.case import Case, SettleStatus
from accord.cases.lifecycle import CaseStatus, Outcome, transition
from accord.cases.records import CaseAbandoned, CaseEscalated
from accord.cases.store import CaseStore
from accord.cases.tier_two import analysis_of, conflict_of
from accord.conflicts import Tier
from accord.dcp07.deadlines import DEADLINE_ACTOR, DeadlineStep
from accord.deadlines import Deadline, armed_for
from accord.deadlines.dispute_tier import (
    DisputeAtDeadline,
    cancel_tier_deadline,
    new_tier_deadline,
)
from accord.errors import NotFound
from accord.ids import new_id
from accord.ladder import option_texts_of, options_of
from accord.ledger import Ledger
from accord.values import revised

#: The deadline kind of a settle case's tier (a filed dispute's is ``dispute_tier``).
CASE_TIER = "case_tier"

_ABOVE_TIER_ONE = frozenset({CaseStatus.ESCALATED, CaseStatus.ARBITRATING, CaseStatus.APPEALING})
ABANDON_REASON = "every deadline ran out with no resolution and no party pursued escalation (R6)"


def passed_reason(tier: Tier) -> str:
    """Why a case left ``tier`` at its deadline (the words its escalation reason gains)."""
    return f"the {tier.value} deadline passed unresolved (R4)"


def case_tier_deadline(
    case: Case, now: datetime, *, item_deadline: datetime | None = None
) -> Deadline | None:
    """The ``case_tier`` deadline of the tier ``case`` waits at, not stored yet; None when it
    needs none: resolved or ended, still at tier 1, or waiting on an approval item whose own
    §12.4 timeout (``item_deadline``) is the appeal tier's deadline."""
    if (
        case.status is not SettleStatus.ESCALATED
        or case.dcp_status not in _ABOVE_TIER_ONE
        or case.tier is Tier.DIRECT_NEGOTIATION
        or case.classification is None
        or item_deadline is not None
    ):
        return None
    return new_tier_deadline(
        case.case_id, case.tier, case.classification.severity, now, kind=CASE_TIER
    )


def cancel_case_deadline(conn: Connection, case_id: str, now: datetime) -> Deadline | None:
    """The case was resolved (or ended): its tier deadline will not fire."""
    return cancel_tier_deadline(conn, case_id, now, kind=CASE_TIER)


def case_tier_due(conn: Connection, case_id: str) -> tuple[datetime, CaseTierAction] | None:
    """When the case's armed ``case_tier`` deadline falls due and what it does to a waiting
    item's case then (at human appeal it ends the case; below, it escalates it); None if none."""
    armed = armed_for(conn, CASE_TIER, case_id)
    if armed is None:
        return None
    return armed.due_at, case_tier_action(armed.tier)


def case_tier_action(tier: str | None) -> CaseTierAction:
    """What a ``case_tier`` deadline armed at ``tier`` does: at human appeal it ends the case
    (its waiting item withdrawn), below it escalates the case."""
    return "abandon" if tier in (None, Tier.HUMAN_APPEAL.value) else "escalate"


def item_acting_deadline(conn: Connection, item: ApprovalItem) -> ActingDeadline | None:
    """The deadline that will act on ``item``: its own §12.4 timeout or its case's tier
    deadline, whichever is sooner (:func:`accord.approvals.acting_deadline`)."""
    if not item.is_pending:
        return None
    due = case_tier_due(conn, item.case_id)
    if due is None:
        return acting_deadline(item)
    return acting_deadline(item, due[0], due[1])


def case_acting_deadline(
    conn: Connection, case_id: str, item: ApprovalItem | None
) -> ActingDeadline | None:
    """The deadline that will act on the case next: its waiting item's (see
    :func:`item_acting_deadline`), else its armed ``case_tier`` row, else None."""
    if item is not None and item.is_pending:
        return item_acting_deadline(conn, item)
    due = case_tier_due(conn, case_id)
    if due is None:
        return None
    return ActingDeadline(
        due_at=due[0], source="case_tier", action=due[1], then=CASE_TIER_WORDS[due[1]]
    )


def case_escalation_deadline(conn: Connection, case: Case) -> Deadline | None:
    """The deadline the case waits on: its armed ``case_tier`` row, else its approval item's
    armed §12.4 timeout (the appeal tier's deadline then), else None."""
    armed = armed_for(conn, CASE_TIER, case.case_id)
    if armed is None and case.approval_item_id is not None:
        armed = armed_for(conn, APPROVAL_TIMEOUT, case.approval_item_id)
    return armed


class CaseDeadlines:
    """The :class:`~accord.deadlines.dispute_tier.EscalateOnDeadline` port over settle cases:
    reads a case and applies R4/R6 to it in the sweeper's transaction."""

    def __init__(self, store: CaseStore, ledger: Ledger, approvals: ApprovalQueue) -> None:
        self._store = store
        self._ledger = ledger
        self._approvals = approvals

    def dispute_at_deadline(self, conn: Connection, dispute_id: str) -> DisputeAtDeadline | None:
        try:
            case = self._store.get_within(conn, dispute_id)
        except NotFound:
            return None
        if case.classification is None:
            return None  # no conflict: nothing to escalate
        return DisputeAtDeadline(
            dispute_id=case.case_id,
            tier=case.tier,
            severity=case.classification.severity,
            unresolved=case.status is SettleStatus.ESCALATED,
            party_escalated=False,  # a settle case climbs by itself, never by a party's hand
        )

    def apply_deadline(
        self, conn: Connection, dispute_id: str, step: DeadlineStep, now: datetime
    ) -> None:
        case = self._store.get_within(conn, dispute_id)
        if step.action == "escalate":
            self._escalate(conn, case, step, now)
        elif step.action == "abandon":
            self._abandon(conn, case, now)
        # "lapse" needs a party that escalated by hand, which a settle case never has

    def _escalate(self, conn: Connection, case: Case, step: DeadlineStep, now: datetime) -> None:
        assert step.to_tier is not None
        assert case.escalation is not None
        escalation = revised(
            case.escalation,
            reason=f"{case.escalation.reason}; {passed_reason(step.from_tier)}",
            next_step="human" if step.to_tier is Tier.HUMAN_APPEAL else None,
            target_tier=step.to_tier,
        )
        queue = step.to_tier is Tier.HUMAN_APPEAL and case.approval_item_id is None
        item_id = new_id("apr", now) if queue else case.approval_item_id
        moved = transition(
            case,
            Outcome.QUEUED if item_id is not None else Outcome.ESCALATED,
            tier=step.to_tier,
            escalation=escalation,
            approval_item_id=item_id,
            decided_at=now,
        )
        self._store.update(conn, moved)
        escalated = CaseEscalated.of(moved, from_level=step.from_tier)
        self._ledger.append_within(conn, [escalated.event()])
        if queue:
            assert item_id is not None
            dispute = conflict_of(moved, moved.department)
            options = options_of(dispute)
            texts = option_texts_of(dispute)
            request_case_approval(
                conn,
                self._approvals,
                moved,
                item_id=item_id,
                summary=escalation.summary,
                analysis="\n".join(
                    [f"Why people decide: {passed_reason(step.from_tier)}", *analysis_of(moved)]
                ),
                options=options,
                option_texts=texts if texts != options else (),
                # the case's human-appeal deadline (re-armed by the sweeper) ends the wait
                policy=WaitForever(),
            )

    def _abandon(self, conn: Connection, case: Case, now: datetime) -> None:
        assert case.escalation is not None
        if case.approval_item_id is not None:
            item = self._approvals.get_within(conn, case.approval_item_id)
            if item.is_pending:
                self._approvals.cancel_within(
                    conn, item.item_id, cancelled_by=DEADLINE_ACTOR, reason=ABANDON_REASON
                )
        escalation = revised(case.escalation, reason=f"{case.escalation.reason}; {ABANDON_REASON}")
        ended = transition(case, Outcome.EXPIRED, escalation=escalation, decided_at=now)
        self._store.update(conn, ended)
        record = CaseAbandoned.of(ended, outcome="expired", decided_by=DEADLINE_ACTOR)
        self._ledger.append_within(conn, [record.event()])
