"""The human approval queue: request, list, decide (compare-and-set) and sweep deadlines.

Deadlines are rows, not timers: an item with a deadline arms an ``approval_timeout`` row of
the shared deadline mechanism (``accord.deadlines``) in the transaction that queues it, and a
decision or withdrawal cancels it. Any sweeper on the same database — this queue's
:meth:`ApprovalQueue.sweep`, or ``accord sweep`` firing every kind — in this process or
another, before or after a restart, fires each row once, and compare-and-set on the item's
``status`` and ``version`` settles each transition exactly once.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import ValidationError as PydanticValidationError
from sqlalchemy import Connection, bindparam, select, update

from accord.approvals import events
from accord.approvals.events import Event
from accord.approvals.item import ApprovalItem, ApprovalStatus, HumanOutcome
from accord.approvals.policies import Risk, TimeoutPolicy, next_deadline, role_at_step
from accord.approvals.position_summary import PositionSummary
from accord.approvals.principal import Principal
from accord.approvals.reviewer import Reviewer
from accord.approvals.rows import item_from_row, item_row
from accord.approvals.timeout_handler import (
    APPROVAL_TIMEOUT,
    ApprovalTimeoutHandler,
    TimedOut,
    step_tier,
)
from accord.approvals.transitions import (
    after_deadline,
    decided_by_human,
    refuse_conflicted,
    refuse_unless_pending,
    withdrawn,
)
from accord.clock import Clock, isoformat
from accord.deadlines import Deadline, DeadlineHandler, arm, cancel, claim_due, new_sweeper_id
from accord.errors import AccordError, NotFound, StoreError, ValidationError
from accord.ids import new_id
from accord.store import Database
from accord.store.driver_query import DriverQuery
from accord.store.group_commit import GroupCommit
from accord.store.short_work import short_write
from accord.store.tables import approval_items

EventSink = Callable[[Connection, builtins.list[Event]], None]
DecisionHook = Callable[[Connection, ApprovalItem, Reviewer], None]
"""Runs inside a decision's transaction with the decided item and its reviewer; raising
refuses the decision (nothing of it is written)."""


@dataclass(frozen=True, slots=True)
class _Decision:
    """One reviewer's decision waiting for the writer lock (see ``ApprovalQueue.decide``)."""

    item_id: str
    reviewer: Reviewer
    outcome: HumanOutcome
    choice: str | None
    reason: str
    written_outcome: str | None = None


class ApprovalQueue:
    """Approval items in the database, with their deadlines and ledger events."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        *,
        on_event: EventSink | None = None,
        party_owners: Mapping[str, str] | None = None,
        sweeper_id: str | None = None,
    ) -> None:
        """``party_owners`` maps agent ids to the principal responsible for them (the org
        chart's ``principal_id``): that principal may not decide an item the agent is party to.
        ``sweeper_id`` is recorded as ``fired_by`` on the deadlines this queue's sweep fires.
        """
        self._db = db
        self._clock = clock
        self._on_event = on_event
        self._party_owners = dict(party_owners or {})
        self.sweeper_id = sweeper_id or new_sweeper_id()
        self._decision_hooks: builtins.list[DecisionHook] = []
        #: Concurrent decisions share one transaction (one fsync), each in its own savepoint:
        #: a refused one (already decided, conflicted, invalid) rolls back alone and its caller
        #: gets its error; every caller returns once the transaction has committed.
        #: ``decisions.max_batch = 1`` gives each decision its own transaction.
        self.decisions: GroupCommit[_Decision, ApprovalItem | AccordError] = GroupCommit(
            self._decide_batch, batch_wide=(StoreError,)
        )

    def on_decided(self, hook: DecisionHook) -> None:
        """Run ``hook`` in every human decision's transaction, after the decision's own event
        (e.g. a human panel member's ballot paper becomes the member's vote)."""
        self._decision_hooks.append(hook)

    # -- asking -----------------------------------------------------------------------------

    def request(
        self,
        *,
        case_id: str,
        title: str,
        summary: str,
        positions: Sequence[PositionSummary | Mapping[str, Any]],
        analysis: str,
        options: Sequence[str],
        risk: Risk,
        policy: TimeoutPolicy,
        option_texts: Sequence[str] = (),
    ) -> ApprovalItem:
        """Queue a new pending item, offered to the policy's first role with its first deadline.

        ``option_texts`` gives each option's full text when some option is a short label."""
        with self._db.write() as conn:
            return self.request_within(
                conn,
                case_id=case_id,
                title=title,
                summary=summary,
                positions=positions,
                analysis=analysis,
                options=options,
                risk=risk,
                policy=policy,
                option_texts=option_texts,
            )

    def request_within(
        self,
        conn: Connection,
        *,
        case_id: str,
        title: str,
        summary: str,
        positions: Sequence[PositionSummary | Mapping[str, Any]],
        analysis: str,
        options: Sequence[str],
        risk: Risk,
        policy: TimeoutPolicy,
        item_id: str | None = None,
        option_texts: Sequence[str] = (),
    ) -> ApprovalItem:
        """:meth:`request` inside the caller's write transaction (e.g. with the case insert).

        ``item_id`` lets a caller that promised an id earlier (a staged request) keep it.
        """
        now = self._clock.now()
        with _as_accord_validation("approval item"):
            item = ApprovalItem.model_validate(
                {
                    "item_id": item_id or new_id("apr", now),
                    "case_id": case_id,
                    "title": title,
                    "summary": summary,
                    "positions": list(positions),
                    "analysis": analysis,
                    "options": tuple(options),
                    "option_texts": tuple(option_texts),
                    "risk": risk,
                    "policy": policy,
                    "created_at": now,
                    "deadline": next_deadline(policy, risk, 0, now),
                    "current_role": role_at_step(policy, 0),
                }
            )
        self._db.insert_rows(conn, approval_items, [item_row(item)])
        if item.deadline is not None:
            arm(
                conn,
                kind=APPROVAL_TIMEOUT,
                subject_id=item.item_id,
                due_at=item.deadline,
                now=now,
                tier=step_tier(item.escalation_step),
            )
        self._emit(conn, [events.requested(item)])
        return item

    # -- reading ----------------------------------------------------------------------------

    def get(self, item_id: str) -> ApprovalItem:
        with self._db.read() as conn:
            return self._load(conn, item_id)

    def pending(self, role: str | None = None) -> builtins.list[ApprovalItem]:
        """Pending items, oldest first; with ``role``, only those currently offered to it."""
        query = select(approval_items.c.document).where(
            approval_items.c.status == ApprovalStatus.PENDING.value
        )
        if role is not None:
            query = query.where(approval_items.c.offered_to_role == role)
        return self._select(query)

    def pending_for(self, principal: Principal) -> builtins.list[ApprovalItem]:
        """Pending items ``principal`` may decide: unrestricted ones and those for its roles."""
        return [
            item
            for item in self.pending()
            if item.current_role is None or principal.holds(item.current_role)
        ]

    def list(
        self, status: ApprovalStatus | str | None = None, case_id: str | None = None
    ) -> builtins.list[ApprovalItem]:
        """Items, oldest first, optionally of one status and/or one case."""
        query = select(approval_items.c.document)
        if status is not None:
            valid = [s.value for s in ApprovalStatus]
            if status not in valid:
                raise ValidationError(
                    f"invalid status {status!r}; valid: {', '.join(valid)}",
                    code="approvals.invalid",
                    field="status",
                    rule=f"one of {', '.join(valid)}",
                )
            status = ApprovalStatus(status)
            query = query.where(approval_items.c.status == status.value)
        if case_id is not None:
            query = query.where(approval_items.c.case_id == case_id)
        return self._select(query)

    # -- deciding ---------------------------------------------------------------------------

    def decide(
        self,
        item_id: str,
        reviewer: Reviewer,
        *,
        outcome: HumanOutcome,
        choice: str | None = None,
        reason: str = "",
        written_outcome: str | None = None,
    ) -> ApprovalItem:
        """Close a pending item by an authenticated reviewer; exactly one decision ever wins.

        ``written_outcome`` approves the reviewer's own outcome in place of a ``choice``
        (printable prose, at most ``MAX_WRITTEN_OUTCOME_CHARS``); the signed record carries it.

        The ``approval_decided`` record carries the reviewer's signature. Raises
        ``approvals.already_decided`` (naming who decided) if the item is closed,
        ``approvals.forbidden`` if the reviewer lacks the item's current role,
        ``approvals.conflicted_decider`` if the reviewer is a party or owns a party agent, and
        ``ValidationError`` if ``choice`` is not one of the item's options. Concurrent calls
        share one transaction (see ``decisions``); each returns once its decision is durable.
        """
        decision = _decision(item_id, reviewer, outcome, choice, reason, written_outcome)
        return _decided(self.decisions.submit(decision))

    async def decide_async(
        self,
        item_id: str,
        reviewer: Reviewer,
        *,
        outcome: HumanOutcome,
        choice: str | None = None,
        reason: str = "",
        written_outcome: str | None = None,
    ) -> ApprovalItem:
        """As :meth:`decide`, from an event loop: the decisions of one loop turn share one
        transaction, written in place on SQLite when nothing would wait there, on a worker
        thread otherwise (``store.short_work``)."""
        decision = _decision(item_id, reviewer, outcome, choice, reason, written_outcome)
        db = self._db
        return _decided(
            await self.decisions.submit_async(decision, lambda write: short_write(db, write))
        )

    def _decide_batch(
        self, batch: Sequence[_Decision]
    ) -> builtins.list[ApprovalItem | AccordError]:
        """Each decision in its own savepoint of one write transaction: the item as decided,
        or the refusal that rolled back that decision alone."""
        out: builtins.list[ApprovalItem | AccordError] = []
        with self._db.write() as conn:
            if len(batch) == 1:  # alone: a refusal rolls back the whole transaction instead
                return [self._decide_within(conn, batch[0])]
            for one in batch:
                try:
                    with self._db.savepoint(conn):
                        out.append(self._decide_within(conn, one))
                except StoreError:
                    raise  # the database failed: the whole batch fails
                except AccordError as refused:
                    out.append(refused)
        return out

    def _decide_within(self, conn: Connection, one: _Decision) -> ApprovalItem:
        before = self._load(conn, one.item_id)
        refuse_conflicted(before, one.reviewer.principal_id, self._party_owners)
        after = decided_by_human(
            before,
            one.reviewer.principal,
            outcome=one.outcome,
            choice=one.choice,
            reason=one.reason,
            now=self._clock.now(),
            written_outcome=one.written_outcome,
        )
        self._compare_and_set(conn, before, after)
        self._disarm(conn, after)
        kind, record = events.transition(before, after)
        self._emit(conn, [(kind, one.reviewer.signed(record))])
        for hook in self._decision_hooks:
            hook(conn, after, one.reviewer)
        return after

    def cancel(self, item_id: str, *, cancelled_by: str, reason: str = "") -> ApprovalItem:
        """Withdraw a pending item (its case was settled another way); parked tasks then fail."""
        with self._db.write() as conn:
            return self.cancel_within(conn, item_id, cancelled_by=cancelled_by, reason=reason)

    def cancel_within(
        self, conn: Connection, item_id: str, *, cancelled_by: str, reason: str = ""
    ) -> ApprovalItem:
        """:meth:`cancel` inside the caller's write transaction."""
        before = self._load(conn, item_id)
        return self._withdraw(conn, [before], cancelled_by=cancelled_by, reason=reason)[0]

    def cancel_pending_within(
        self, conn: Connection, item_ids: Sequence[str], *, cancelled_by: str, reason: str = ""
    ) -> builtins.list[ApprovalItem]:
        """Withdraw those of ``item_ids`` still pending, in the caller's transaction: read in
        one query, their events emitted together (one ledger append); the items withdrawn."""
        if not item_ids:
            return []
        rows = conn.execute(
            select(approval_items.c.document)
            .where(approval_items.c.item_id.in_(sorted(set(item_ids))))
            .where(approval_items.c.status == ApprovalStatus.PENDING.value)
            .order_by(approval_items.c.item_id)
        ).mappings()
        pending = [item_from_row(row) for row in rows]
        return self._withdraw(conn, pending, cancelled_by=cancelled_by, reason=reason)

    def _withdraw(
        self,
        conn: Connection,
        items: Sequence[ApprovalItem],
        *,
        cancelled_by: str,
        reason: str,
    ) -> builtins.list[ApprovalItem]:
        """Cancel each pending item (compare-and-set), disarm its timeout, and emit every
        ``approval_cancelled`` event at once."""
        now = isoformat(self._clock.now())
        done: builtins.list[ApprovalItem] = []
        emitted: builtins.list[Event] = []
        for before in items:
            after = withdrawn(before)
            self._compare_and_set(conn, before, after)
            self._disarm(conn, after)
            kind, record = events.transition(before, after)
            record.update(cancelled_by=cancelled_by, reason=reason, cancelled_at=now)
            emitted.append((kind, record))
            done.append(after)
        self._emit(conn, emitted)
        return done

    def sweep(self, now: datetime | None = None, limit: int = 100) -> builtins.list[ApprovalItem]:
        """Apply the timeout policy to up to ``limit`` pending items whose deadline has passed.

        Returns the items as changed (expired, escalated, or waiting without a deadline). Due
        ``approval_timeout`` deadline rows are claimed with ``FOR UPDATE SKIP LOCKED`` on
        PostgreSQL and each is fired once, in one transaction whose events are emitted
        together; each item change is compare-and-set, so none is applied twice.
        """
        return self._sweep_batch(now, limit)[0]

    def sweep_due(
        self, now: datetime | None = None, batch: int = 100
    ) -> builtins.list[ApprovalItem]:
        """Apply every deadline due at ``now``: :meth:`sweep` in transactions of ``batch``
        items, until a batch finds nothing left to fire (items another sweeper holds are
        its own). Returns every item changed, in the order they were swept."""
        if batch < 1:
            raise ValidationError(
                "batch must be a positive number of items", field="batch", rule=">= 1"
            )
        now = now or self._clock.now()
        changed: builtins.list[ApprovalItem] = []
        while True:
            swept, claimed = self._sweep_batch(now, batch)
            changed.extend(swept)
            if not claimed:
                return changed

    def timeout_handler(self) -> DeadlineHandler:
        """The ``approval_timeout`` handler for a sweeper that fires every deadline kind
        (``accord sweep``): each timeout's event is emitted as its deadline fires."""
        return ApprovalTimeoutHandler(self._timed_out_and_emitted)

    def _sweep_batch(
        self, now: datetime | None, limit: int
    ) -> tuple[builtins.list[ApprovalItem], int]:
        """One transaction: the items changed, and how many deadline rows it claimed."""
        now = now or self._clock.now()
        if now.tzinfo is None:
            raise ValidationError(
                "sweep needs a timezone-aware time", field="now", rule="timezone-aware UTC"
            )
        with self._db.write() as conn:
            claimed = claim_due(
                conn,
                now=now,
                limit=limit,
                sweeper_id=self.sweeper_id,
                handlers={APPROVAL_TIMEOUT: ApprovalTimeoutHandler(self._timed_out)},
            )
            applied: builtins.list[TimedOut] = [
                f.handled.value for f in claimed.fired if f.handled.value is not None
            ]
            self._emit(conn, [event for _, event in applied])  # one batch per transaction
        return [item for item, _ in applied], len(claimed.fired) + len(claimed.failed)

    def _timed_out_and_emitted(
        self, conn: Connection, deadline: Deadline, now: datetime
    ) -> TimedOut | None:
        applied = self._timed_out(conn, deadline, now)
        if applied is not None:
            self._emit(conn, [applied[1]])
        return applied

    def _timed_out(self, conn: Connection, deadline: Deadline, now: datetime) -> TimedOut | None:
        """The item ``deadline`` names, its policy applied, and the event; None if it no
        longer waits on this deadline (decided, withdrawn, or gone)."""
        row = (
            conn.execute(
                select(approval_items.c.document).where(
                    approval_items.c.item_id == deadline.subject_id
                )
            )
            .mappings()
            .first()
        )
        if row is None:
            return None
        before = item_from_row(row)
        if not before.is_pending or before.deadline is None:
            return None
        after = after_deadline(before, now)
        if not self._compare_and_set(conn, before, after, raise_on_conflict=False):
            return None
        return after, events.transition(before, after)

    def _disarm(self, conn: Connection, item: ApprovalItem) -> None:
        """A closed item's timeout will not fire."""
        cancel(conn, kind=APPROVAL_TIMEOUT, subject_id=item.item_id, now=self._clock.now())

    # -- plumbing ---------------------------------------------------------------------------

    def get_within(self, conn: Connection, item_id: str) -> ApprovalItem:
        """:meth:`get` inside the caller's transaction."""
        return self._load(conn, item_id)

    def _load(self, conn: Connection, item_id: str) -> ApprovalItem:
        row = _LOAD.first(conn, {"wanted": item_id})
        if row is None:
            raise NotFound(
                f"no approval item {item_id!r}", code="approvals.not_found", item_id=item_id
            )
        return item_from_row(row)

    def _select(self, query: Any) -> builtins.list[ApprovalItem]:
        query = query.order_by(approval_items.c.created_at, approval_items.c.item_id)
        with self._db.read() as conn:
            return [item_from_row(row) for row in conn.execute(query).mappings()]

    def _compare_and_set(
        self,
        conn: Connection,
        before: ApprovalItem,
        after: ApprovalItem,
        *,
        raise_on_conflict: bool = True,
    ) -> bool:
        """Write ``after`` only if the row is still ``before``'s pending version."""
        values = item_row(after)
        del values["item_id"]
        matched = _SWAP.execute(
            conn, {**values, "wanted": before.item_id, "pending_version": before.version}
        )
        if matched == 1:
            return True
        if raise_on_conflict:
            refuse_unless_pending(self._load(conn, before.item_id))
            raise AccordError(
                f"approval {before.item_id} changed while it was being decided; reload it",
                code="approvals.conflict",
                item_id=before.item_id,
                version=before.version,
            )
        return False

    def _emit(self, conn: Connection, records: builtins.list[Event]) -> None:
        if self._on_event is not None and records:
            self._on_event(conn, records)


# Built once and run on the driver (per call they were a few % of a decision each, issue 13).
_LOAD = DriverQuery(
    select(approval_items.c.document).where(approval_items.c.item_id == bindparam("wanted"))
)
#: The compare-and-set: every column but the key is set (``item_row`` gives them all).
_SWAP = DriverQuery(
    update(approval_items)
    .where(approval_items.c.item_id == bindparam("wanted"))
    .where(approval_items.c.status == ApprovalStatus.PENDING.value)
    .where(approval_items.c.version == bindparam("pending_version")),
    set_columns=[c.name for c in approval_items.columns if c.name != "item_id"],
)


@contextmanager
def _as_accord_validation(what: str) -> Iterator[None]:
    """Map pydantic's errors at this boundary to Accord's ``ValidationError``."""
    try:
        yield
    except (PydanticValidationError, ValueError) as exc:
        if isinstance(exc, PydanticValidationError):
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or what
            rule = str(first["msg"]).removeprefix("Value error, ")
        else:
            field, rule = what, str(exc)
        raise ValidationError(
            f"invalid {what}: {field}: {rule}", code="approvals.invalid", field=field, rule=rule
        ) from exc


def _decision(
    item_id: str,
    reviewer: Reviewer,
    outcome: HumanOutcome,
    choice: str | None,
    reason: str,
    written_outcome: str | None,
) -> _Decision:
    if not isinstance(reviewer, Reviewer):
        raise ValidationError(
            "decisions come from a Reviewer (a principal and its reviewer key)",
            code="approvals.invalid",
            field="reviewer",
            rule="a Reviewer, e.g. from Accord.reviewer(signer)",
        )
    return _Decision(item_id, reviewer, outcome, choice, reason, written_outcome)


def _decided(result: ApprovalItem | AccordError) -> ApprovalItem:
    if isinstance(result, AccordError):
        raise result
    return result
