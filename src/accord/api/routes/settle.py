"""``POST /api/v1/settle`` and ``/settle/batch``: positions in, decided or escalated cases
out; ``POST /api/v1/approval-requests``: an agent's proposed action straight to people."""

from __future__ import annotations

from typing import Annotated

from litestar import Request, post
from litestar.datastructures import State
from litestar.params import JSONBody

from accord.api import body_examples
from accord.api.api_keys import Role
from accord.api.errors import error_responses
from accord.api.guards import allow, caller, require_own_positions
from accord.api.idempotency_header import IdempotencyKeyHeader, caller_scoped
from accord.api.routes._state import accord_of
from accord.api.schemas import ApprovalRequestIn, CaseSummary, SettleBatchIn, SettleIn
from accord.cases import SettleRequest
from accord.store import on_loop_if_sqlite

_ERRORS = error_responses(400, 401, 403, 409, 413, 422)


def _request(body: SettleIn) -> SettleRequest:
    return SettleRequest(
        subject=body.subject,
        positions=[p.model_dump(exclude_unset=True) for p in body.positions],
        task_type=body.task_type,
        session_id=body.session_id,
    )


@post(
    "/settle",
    opt=allow(Role.AGENT, Role.ADMIN),
    status_code=200,
    responses=_ERRORS,
    tags=["settle"],
    operation_id="settleCase",
    summary="Settle one disagreement",
)
async def settle_one(
    request: Request[object, object, State],
    state: State,
    data: Annotated[SettleIn, body_examples.SETTLE],
    idempotency_key: IdempotencyKeyHeader = None,
) -> CaseSummary:
    """Settle one set of positions (an agent key submits only its own agent's positions).

    With an ``Idempotency-Key`` header a retry of the same request returns the case the first
    call recorded, writing nothing; the same key with a different request is refused (409
    ``idempotency.conflict``). Keys are per caller: another key's equal string is another key.
    """
    key = caller(request)
    require_own_positions(key, [p.agent for p in data.positions])
    one = _request(data)
    accord = accord_of(state)
    scoped = caller_scoped(key, idempotency_key)
    # on SQLite decided on the event loop (a tier-2 model call is awaited there) and recorded
    # through the group commit of that loop turn; on PostgreSQL all of it on a worker thread
    case = await on_loop_if_sqlite(
        accord.db,
        lambda: accord.settle_async(
            one.subject,
            one.positions,
            task_type=one.task_type,
            session_id=one.session_id,
            idempotency_key=scoped,
        ),
        lambda: accord.settle(
            one.subject,
            one.positions,
            task_type=one.task_type,
            session_id=one.session_id,
            idempotency_key=scoped,
        ),
    )
    return CaseSummary.of(case)


@post(
    "/settle/batch",
    opt=allow(Role.AGENT, Role.ADMIN),
    sync_to_thread=True,
    status_code=200,
    responses=_ERRORS,
    tags=["settle"],
    operation_id="settleCases",
    summary="Settle several disagreements",
)
def settle_batch(
    request: Request[object, object, State], state: State, data: JSONBody[SettleBatchIn]
) -> list[CaseSummary]:
    """Settle many cases in one transaction: all are recorded, or none."""
    key = caller(request)
    for body in data.requests:
        require_own_positions(key, [p.agent for p in body.positions])
    cases = accord_of(state).settle_many([_request(body) for body in data.requests])
    return [CaseSummary.of(c) for c in cases]


@post(
    "/approval-requests",
    opt=allow(Role.AGENT),
    sync_to_thread=True,
    status_code=201,
    responses=_ERRORS,
    tags=["settle"],
    operation_id="requestApproval",
    summary="Ask people to approve a proposed action",
)
def request_approval(
    request: Request[object, object, State],
    state: State,
    data: JSONBody[ApprovalRequestIn],
    idempotency_key: IdempotencyKeyHeader = None,
) -> CaseSummary:
    """The key's agent proposes an action that people approve before it runs: a case that
    goes straight to the approval queue (never decided at tier 1); park on it to wait. With
    an ``Idempotency-Key`` header a retry returns the case the first call recorded."""
    key = caller(request)
    agent_id = key.agent_id
    assert agent_id is not None  # an agent key is always bound to its agent
    case = accord_of(state).request_approval(
        data.subject,
        agent_id=agent_id,
        proposal=data.proposal,
        gate=data.gate,
        reason=data.reason,
        task_type=data.task_type,
        session_id=data.session_id,
        idempotency_key=caller_scoped(key, idempotency_key),
    )
    return CaseSummary.of(case)
