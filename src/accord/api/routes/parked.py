"""Parked tasks over HTTP: an agent parks its task on a case that waits for people, then
waits for the decision by long-poll or server-sent events, from any process.

A task resumes exactly once: the answer that carries the decision marks the task resumed,
so a second waiter gets 409 ``approvals.already_resumed`` (as in the library). Waiting never
reads the wall clock: it polls the store ``wait / poll_interval`` times.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal, cast

import anyio.to_thread
from litestar import Request, get, post
from litestar.datastructures import State
from litestar.params import HeaderParameter, JSONBody, Parameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from accord.api.api_keys import ApiKey, Role
from accord.api.auth_errors import Forbidden
from accord.api.errors import error_responses
from accord.api.guards import READERS, allow, caller
from accord.api.idempotency_header import IdempotencyKeyHeader, caller_scoped
from accord.api.routes._state import accord_of
from accord.api.schemas import ParkedOut, ParkIn, WaitOut
from accord.app import Accord
from accord.approvals import ParkedTask
from accord.errors import AccordError

MAX_WAIT_SECONDS = 60.0
DEFAULT_POLL_SECONDS = 0.5
DEFAULT_HEARTBEAT_SECONDS = 15.0
DEFAULT_STREAM_SECONDS = 300.0
WAITING_ID, DECIDED_ID = 1, 2
TaskId = Annotated[str, Parameter(max_length=64, description="The parked task's id.")]


def poll_interval_of(state: State) -> float:
    return cast(float, cast(Any, state).get("poll_interval", DEFAULT_POLL_SECONDS))


def _own_task(accord: Accord, key: ApiKey, task_id: str) -> ParkedTask:
    """The task, if the key may follow it: its own agent's, or any for overseers."""
    task = accord.parking.get(task_id)
    if key.role is Role.AGENT and task.agent_id != key.agent_id:
        raise Forbidden(
            f"this key acts as {key.agent_id}, not as {task.agent_id}",
            field="task_id",
            rule="an agent key follows only its own agent's parked tasks",
        )
    return task


@post(
    "/cases/{case_id:str}/park",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=error_responses(400, 401, 403, 404, 409, 413, 422),
    tags=["parked tasks"],
    operation_id="parkTask",
    summary="Park a task until people decide",
)
def park(
    request: Request[object, object, State],
    state: State,
    case_id: Annotated[str, Parameter(max_length=64, description="The case's id.")],
    data: JSONBody[ParkIn],
    idempotency_key: IdempotencyKeyHeader = None,
) -> ParkedOut:
    """Park the key's agent's task on a case waiting for people, with its context. With an
    ``Idempotency-Key`` header a retried park returns the task the first one parked; the same
    key with a different park is refused (409 ``idempotency.conflict``)."""
    accord = accord_of(state)
    key = caller(request)
    agent_id = key.agent_id
    assert agent_id is not None  # an agent key is always bound to its agent
    handle = accord.park(
        case_id,
        agent_id,
        data.context,
        idempotency_key=caller_scoped(key, idempotency_key),
        party_only=True,  # an agent key parks only on its own agent's cases
    )
    return _parked_out(accord, accord.parking.get(handle.task_id))


@get(
    "/parked/{task_id:str}",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404),
    tags=["parked tasks"],
    operation_id="getParkedTask",
    summary="Get a parked task",
)
def get_parked(request: Request[object, object, State], state: State, task_id: TaskId) -> ParkedOut:
    """A parked task, the deadline that will act on its approval item (and what happens
    then) and, once decided, the decision with its verdict, reason and written outcome."""
    accord = accord_of(state)
    task = _own_task(accord, caller(request), task_id)
    return _parked_out(accord, task)


@get(
    "/parked/{task_id:str}/decision",
    opt=allow(*READERS),
    responses=error_responses(400, 401, 403, 404, 409, 422),
    tags=["parked tasks"],
    operation_id="waitForDecision",
    summary="Wait for a parked task's decision",
)
async def wait_for_decision(
    request: Request[object, object, State],
    state: State,
    task_id: TaskId,
    wait: Annotated[
        float,
        Parameter(
            ge=0.0,
            le=MAX_WAIT_SECONDS,
            description="Seconds to wait for the decision (0: answer at once).",
        ),
    ] = 0.0,
    claim: Annotated[
        str | None,
        Parameter(
            min_length=1,
            max_length=200,
            description="Your own claim id: asking again with it re-delivers the same decision.",
        ),
    ] = None,
) -> WaitOut:
    """Long-poll: up to ``wait`` seconds for the decision. Decided: the task resumes (once)
    and the answer carries the decision; still pending: ``resumed: false``. A ``claim``
    names the consumer: asking again with the same claim (a retry after a dropped
    connection) gets the same resumption; another claim, or none, gets 409."""
    accord = accord_of(state)
    key = caller(request)
    await anyio.to_thread.run_sync(_own_task, accord, key, task_id)
    interval = poll_interval_of(state)
    polls = int(wait / interval) if wait > 0 else 0
    scoped = caller_scoped(key, claim)
    resume = functools.partial(accord.parking.resume_if_decided, task_id, claim=scoped)
    for attempt in range(polls + 1):
        resumption = await anyio.to_thread.run_sync(resume)
        if resumption is not None:
            return WaitOut(resumed=True, status="decided", resumption=resumption)
        if attempt < polls:
            await asyncio.sleep(interval)
    return WaitOut(resumed=False, status="pending", resumption=None)


@get(
    "/parked/{task_id:str}/events",
    opt=allow(*READERS),
    responses=error_responses(400, 401, 403, 404),
    tags=["parked tasks"],
    operation_id="streamDecisionEvents",
    summary="Stream a parked task's decision events",
)
async def decision_events(
    request: Request[object, object, State],
    state: State,
    task_id: TaskId,
    last_event_id: Annotated[
        Literal["1", "2"] | None,
        HeaderParameter(
            name="Last-Event-ID",
            required=False,
            description="The id of the last event received: 1 (waiting) or 2 (decided).",
        ),
    ] = None,
) -> ServerSentEvent:
    """Server-sent events: ``waiting`` (id 1), ``: ping`` comments while people decide, then
    ``decided`` (id 2) with the resumption, or ``refused`` naming why, or ``timeout`` once
    the stream's time limit passed; then it ends. Reconnect with ``Last-Event-ID``: after 1
    the stream goes on waiting; after 2 it ends at once (the decision was received). The
    stream resumes the task under its own claim, so a connection dropped while the decision
    was sent gets it again from the next stream of the same key."""
    accord = accord_of(state)
    key = caller(request)
    await anyio.to_thread.run_sync(_own_task, accord, key, task_id)
    claim = caller_scoped(key, f"events:{task_id}")
    timing = cast(Any, state)
    return ServerSentEvent(
        _events(
            accord,
            task_id,
            claim,
            after=int(last_event_id or 0),
            interval=poll_interval_of(state),
            heartbeat=float(timing.get("heartbeat_seconds", DEFAULT_HEARTBEAT_SECONDS)),
            limit=float(timing.get("stream_seconds", DEFAULT_STREAM_SECONDS)),
        )
    )


async def _events(
    accord: Accord,
    task_id: str,
    claim: str | None,
    *,
    after: int,
    interval: float,
    heartbeat: float,
    limit: float,
) -> AsyncIterator[ServerSentEventMessage]:
    """Polls the store ``limit / interval`` times (never the wall clock), a ping every
    ``heartbeat / interval`` polls."""
    if after >= DECIDED_ID:
        return
    if after < WAITING_ID:
        waiting = {"task_id": task_id, "status": "pending"}
        yield ServerSentEventMessage(data=json.dumps(waiting), event="waiting", id=str(WAITING_ID))
    resume = functools.partial(accord.parking.resume_if_decided, task_id, claim=claim)
    polls = max(1, int(limit / interval))
    ping_every = max(1, round(heartbeat / interval))
    for poll in range(polls):
        try:
            resumption = await anyio.to_thread.run_sync(resume)
        except AccordError as refused:
            body = {"code": refused.code, "message": str(refused)}
            yield ServerSentEventMessage(data=json.dumps(body), event="refused")
            return
        if resumption is not None:
            data = resumption.model_dump_json()
            yield ServerSentEventMessage(data=data, event="decided", id=str(DECIDED_ID))
            return
        if poll % ping_every == ping_every - 1:
            yield ServerSentEventMessage(comment="ping", data=None)  # no empty data line
        await asyncio.sleep(interval)
    yield ServerSentEventMessage(data=json.dumps({"after_seconds": limit}), event="timeout")


def _parked_out(accord: Accord, task: ParkedTask) -> ParkedOut:
    item = accord.approvals.get(task.item_id)
    return ParkedOut.of(task, item, accord.acting_deadline(item))
