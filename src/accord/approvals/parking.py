"""Agents park a task on an approval item and resume it, exactly once, when it is decided.

The parked task lives in the database, so the agent that resumes it may be another process
(or the same agent after a restart): :meth:`Parking.handle` re-attaches by task id.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select, update

from accord.approvals.conflict_rule import refuse_non_party
from accord.approvals.item import ApprovalDecision, ApprovalStatus
from accord.approvals.parked_task import ParkedTask, Resumption
from accord.approvals.queue import ApprovalQueue
from accord.approvals.refusals import AlreadyResumed, ApprovalCancelled, DecisionWaitTimedOut
from accord.approvals.rows import item_from_row
from accord.approvals.verdict import verdict_of_decision
from accord.clock import Clock, isoformat
from accord.errors import NotFound, ValidationError
from accord.ids import new_id
from accord.store import Database
from accord.store.tables import approval_items, parked_tasks

Sleep = Callable[[float], Awaitable[object]]


class Parking:
    """Where agents leave tasks that wait on people."""

    def __init__(self, db: Database, queue: ApprovalQueue, clock: Clock) -> None:
        self._db = db
        self._queue = queue
        self._clock = clock

    def park(
        self,
        agent_id: str,
        item_id: str,
        context: Mapping[str, Any],
        *,
        party_only: bool = False,
    ) -> TaskHandle:
        """Park ``agent_id``'s task on ``item_id`` with its JSON-serializable ``context``.
        ``party_only`` (an agent's own credential acts): the agent must be a party of the item
        (``approvals.not_a_party``); without it the caller is an orchestrator (a graph, the
        MCP server) parking on behalf of its agents."""
        with self._db.write() as conn:
            return self.park_within(conn, agent_id, item_id, context, party_only=party_only)

    def park_within(
        self,
        conn: Connection,
        agent_id: str,
        item_id: str,
        context: Mapping[str, Any],
        *,
        party_only: bool = False,
    ) -> TaskHandle:
        """:meth:`park` inside the caller's write transaction (e.g. with the request)."""
        row = conn.execute(
            select(approval_items.c.document).where(approval_items.c.item_id == item_id)
        ).first()
        if row is None:
            raise NotFound(
                f"no approval item {item_id!r} to park on",
                code="approvals.not_found",
                item_id=item_id,
            )
        if not agent_id:
            raise ValidationError("agent_id must not be empty", field="agent_id", rule="non-empty")
        if party_only:
            item = item_from_row(row._mapping)
            refuse_non_party(
                agent_id,
                (p.agent for p in item.positions),
                act="park a task on",
                case_id=item.case_id,
                field="agent_id",
            )
        parked_at = self._clock.now()
        task = ParkedTask(
            task_id=new_id("park", parked_at),
            item_id=item_id,
            agent_id=agent_id,
            context=dict(context),
            parked_at=parked_at,
        )
        self._db.insert_rows(
            conn,
            parked_tasks,
            [
                {
                    "task_id": task.task_id,
                    "item_id": task.item_id,
                    "agent_id": task.agent_id,
                    "parked_at": isoformat(task.parked_at),
                    "resumed_at": None,
                    "context": _context_json(task.context),
                    "claim": None,
                }
            ],
        )
        return TaskHandle(task.task_id, task.item_id, self)

    def handle(self, task_id: str) -> TaskHandle:
        """Re-attach to a parked task (another process, or after a restart)."""
        return TaskHandle(task_id, self.get(task_id).item_id, self)

    def get(self, task_id: str) -> ParkedTask:
        with self._db.read() as conn:
            row = (
                conn.execute(select(parked_tasks).where(parked_tasks.c.task_id == task_id))
                .mappings()
                .first()
            )
        if row is None:
            raise NotFound(
                f"no parked task {task_id!r}", code="approvals.not_found", task_id=task_id
            )
        return _task_from_row(row)

    def parked(
        self, agent_id: str | None = None, *, include_resumed: bool = False
    ) -> list[ParkedTask]:
        """Tasks still parked (oldest first), optionally of one agent."""
        query = select(parked_tasks).order_by(parked_tasks.c.parked_at, parked_tasks.c.task_id)
        if agent_id is not None:
            query = query.where(parked_tasks.c.agent_id == agent_id)
        if not include_resumed:
            query = query.where(parked_tasks.c.resumed_at.is_(None))
        with self._db.read() as conn:
            return [_task_from_row(row) for row in conn.execute(query).mappings()]

    def resume_if_decided(self, task_id: str, *, claim: str | None = None) -> Resumption | None:
        """The task's resumption once its item is decided (None while pending); see ``poll``.

        ``claim`` names the consumer: the first successful call stores it, and a later call
        with the same claim gets the same resumption again (a framework re-running its node
        or retrying its request is not a second resume); another claim, or none, is refused
        with ``approvals.already_resumed``.
        """
        if claim is not None:
            _check_claim(claim)
        task = self.get(task_id)
        if task.resumed_at is not None:
            if claim is None or self._claim_of(task_id) != claim:
                raise _already_resumed(task)
            return self._resumption(task, self._queue.get(task.item_id).decision)
        item = self._queue.get(task.item_id)
        if item.status is ApprovalStatus.PENDING:
            return None
        if item.decision is None:  # cancelled: no decision will ever come
            raise ApprovalCancelled(
                f"approval {item.item_id} was cancelled; task {task_id} cannot resume with a "
                "decision",
                item_id=item.item_id,
                task_id=task_id,
            )
        now = self._clock.now()
        with self._db.write() as conn:
            claimed = conn.execute(
                update(parked_tasks)
                .where(parked_tasks.c.task_id == task_id)
                .where(parked_tasks.c.resumed_at.is_(None))
                .values(resumed_at=isoformat(now), claim=claim)
            ).rowcount
        if claimed != 1:
            again = self.get(task_id)
            if claim is not None and self._claim_of(task_id) == claim:
                return self._resumption(again, item.decision)
            raise _already_resumed(again)
        return self._resumption(task, item.decision)

    def _claim_of(self, task_id: str) -> str | None:
        with self._db.read() as conn:
            claim = conn.execute(
                select(parked_tasks.c.claim).where(parked_tasks.c.task_id == task_id)
            ).scalar_one_or_none()
        return None if claim is None else str(claim)

    @staticmethod
    def _resumption(task: ParkedTask, decision: ApprovalDecision | None) -> Resumption:
        assert decision is not None  # a resumed task's item carries its decision
        return Resumption(
            task_id=task.task_id,
            agent_id=task.agent_id,
            context=task.context,
            verdict=verdict_of_decision(decision),
            decision=decision,
        )


class TaskHandle:
    """A parked task an agent can wait on (``await handle.decision()``) or poll."""

    def __init__(self, task_id: str, item_id: str, parking: Parking) -> None:
        self.task_id = task_id
        self.item_id = item_id
        self._parking = parking

    def __repr__(self) -> str:
        return f"TaskHandle(task_id={self.task_id!r}, item_id={self.item_id!r})"

    def poll(self, *, claim: str | None = None) -> Resumption | None:
        """Non-blocking: the resumption once decided, else None.

        The first successful poll resumes the task (``resumed_at`` is set exactly once); later
        polls raise ``approvals.already_resumed`` unless they give the same ``claim`` as the
        first, which get the same resumption again. A cancelled item raises
        ``approvals.cancelled``.
        """
        return self._parking.resume_if_decided(self.task_id, claim=claim)

    async def decision(
        self,
        *,
        poll_interval: float = 0.5,
        timeout: float | None = None,
        sleep: Sleep = asyncio.sleep,
        claim: str | None = None,
    ) -> Resumption:
        """Wait until the item is decided, polling the store every ``poll_interval`` seconds.

        ``timeout`` counts the intervals slept (no wall clock is read); when it runs out the
        wait raises ``approvals.wait_timed_out`` and the task stays parked.
        """
        if poll_interval <= 0:
            raise ValidationError(
                "poll_interval must be positive", field="poll_interval", rule="> 0"
            )
        waited = 0.0
        while True:
            resumption = await asyncio.to_thread(functools.partial(self.poll, claim=claim))
            if resumption is not None:
                return resumption
            if timeout is not None and waited >= timeout:
                raise DecisionWaitTimedOut(
                    f"no decision on {self.item_id} within {timeout} s; task {self.task_id} "
                    "stays parked",
                    task_id=self.task_id,
                    item_id=self.item_id,
                )
            await sleep(poll_interval)
            waited += poll_interval


def _context_json(context: Mapping[str, Any]) -> str:
    try:
        return json.dumps(context, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise ValidationError(
            f"a parked task's context must be JSON: {exc}",
            code="approvals.context_not_json",
            field="context",
            rule="JSON-serializable (str keys, finite numbers)",
        ) from exc


def _task_from_row(row: Mapping[Any, Any]) -> ParkedTask:
    return ParkedTask(
        task_id=row["task_id"],
        item_id=row["item_id"],
        agent_id=row["agent_id"],
        context=json.loads(row["context"]),
        parked_at=_parse(row["parked_at"]),
        resumed_at=_parse(row["resumed_at"]) if row["resumed_at"] else None,
    )


def _parse(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _already_resumed(task: ParkedTask) -> AlreadyResumed:
    when = isoformat(task.resumed_at) if task.resumed_at else "earlier"
    return AlreadyResumed(
        f"task {task.task_id} was already resumed at {when}",
        task_id=task.task_id,
        resumed_at=when,
    )


def _check_claim(claim: str) -> None:
    if not claim or len(claim) > 256 or not claim.isprintable():
        raise ValidationError(
            "a claim is 1 to 256 printable characters",
            code="approvals.invalid_claim",
            field="claim",
            rule="1..256 printable characters",
        )
