"""The approval queue over HTTP: list (filters, paging), get, decide as a reviewer, and a
decided item's signed receipt."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get, post
from litestar.datastructures import State
from litestar.params import JSONBody, Parameter

from accord.api import body_examples
from accord.api.api_keys import Role
from accord.api.auth_errors import Forbidden
from accord.api.deciding import (
    Verdict,
    decide_as_reviewer,
    decide_as_reviewer_async,
    decide_each,
)
from accord.api.errors import error_body, error_responses, status_for
from accord.api.guards import OVERSEERS, READERS, allow, caller
from accord.api.queries.case_pages import MAX_PAGE, QueueFilter, queue_documents
from accord.api.request_context import request_id_of
from accord.api.routes._state import accord_of
from accord.api.schemas import (
    ApprovalItemOut,
    ApprovalPage,
    BulkDecideIn,
    BulkDecideOut,
    BulkDecisionOut,
    DecideIn,
)
from accord.approvals import refuse_unless_one_decision
from accord.audit import DecisionReceipt
from accord.errors import AccordError
from accord.store import on_loop_if_sqlite, short_read

Filter = Annotated[str | None, Parameter(max_length=256)]


@get(
    "/approvals",
    opt=allow(*OVERSEERS),
    responses=error_responses(400, 401, 403, 422),
    tags=["approvals"],
    operation_id="listApprovalItems",
    summary="List approval items",
)
async def list_approvals(
    state: State,
    status: Annotated[
        str | None,
        Parameter(
            max_length=256,
            description="Only items with this status (pending by default; `all` for every status).",
        ),
    ] = "pending",
    risk: Annotated[
        str | None,
        Parameter(
            max_length=256, description="Only items of this risk: low, medium, high or critical."
        ),
    ] = None,
    kind: Annotated[
        str | None,
        Parameter(max_length=256, description="Only items whose case has this conflict kind."),
    ] = None,
    severity: Annotated[
        str | None,
        Parameter(max_length=256, description="Only items whose case has this severity."),
    ] = None,
    agent: Annotated[
        str | None,
        Parameter(max_length=256, description="Only items in which this agent took a position."),
    ] = None,
    case_id: Annotated[
        str | None, Parameter(max_length=256, description="Only the item of this case.")
    ] = None,
    limit: Annotated[
        int, Parameter(ge=1, le=MAX_PAGE, description="At most this many items.")
    ] = 50,
    cursor: Annotated[
        str | None, Parameter(max_length=512, description="The next_cursor of the previous page.")
    ] = None,
) -> Response[ApprovalPage]:
    """Approval items, oldest first (pending by default), each with its case's kind, severity
    and task type and the deadline that will act on it (``acting_deadline``: its own or its
    case tier's, whichever is sooner, and what happens then)."""
    filters = QueueFilter(
        status=status, risk=risk, kind=kind, severity=severity, agent=agent, case_id=case_id
    )
    db = accord_of(state).db
    page = await short_read(
        db,
        lambda: queue_documents(db, filters, limit=limit, cursor=cursor),
        # the plain queue reads one index range; a filter may scan many rows
        indexed=filters == QueueFilter(status=status),
    )
    # each item as stored (the ApprovalItem's own JSON, its fields' raw text copied into the
    # answer): validating it into the model and dumping it again was most of a listing's
    # cost, and parsing it all then encoding it again a tenth more (issue 13)
    items: list[dict[str, Any]] = [
        {
            **e.document,
            "kind": e.kind,
            "severity": e.severity,
            "task_type": e.task_type,
            "acting_deadline": None if e.acting is None else e.acting.model_dump(mode="json"),
        }
        for e in page.rows
    ]
    body: Any = {"items": items, "next_cursor": page.next_cursor}  # ApprovalPage's shape
    return Response(body)


@get(
    "/approvals/{item_id:str}",
    opt=allow(*OVERSEERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404),
    tags=["approvals"],
    operation_id="getApprovalItem",
    summary="Get an approval item",
)
def get_approval(
    state: State,
    item_id: Annotated[str, Parameter(max_length=64, description="The approval item's id.")],
) -> ApprovalItemOut:
    """One approval item: positions, analysis, options, the deadline that will act on it
    (``acting_deadline``: its own or its case tier's, whichever is sooner, and what happens
    then), the decision and its ``verdict``."""
    accord = accord_of(state)
    item = accord.approvals.get(item_id)
    return ApprovalItemOut.of(item, accord.acting_deadline(item))


@get(
    "/approvals/{item_id:str}/receipt",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404, 409),
    tags=["approvals"],
    operation_id="getDecisionReceipt",
    summary="Get a decided approval item's signed receipt",
)
def get_receipt(
    request: Request[object, object, State],
    state: State,
    item_id: Annotated[str, Parameter(max_length=64, description="The approval item's id.")],
) -> DecisionReceipt:
    """The decided item's signed receipt: the decision, the ledger entry that recorded it
    and that entry's inclusion proof, checkable offline (``accord receipt verify``). Readers
    of the item may read it, and an agent key for an item its agent parked a task on; an
    undecided item is 409 ``approvals.pending``."""
    accord = accord_of(state)
    key = caller(request)
    if key.role is Role.AGENT:
        tasks = accord.parking.parked(key.agent_id, include_resumed=True)
        if not any(task.item_id == item_id for task in tasks):
            raise Forbidden(
                f"this key acts as {key.agent_id}, which parked no task on {item_id}",
                field="item_id",
                rule="an agent key reads the receipts of items its agent parked a task on",
            )
    return accord.receipt(item_id)


@post(
    "/approvals/{item_id:str}/decision",
    opt=allow(Role.REVIEWER),
    status_code=200,
    responses=error_responses(400, 401, 403, 404, 409, 413, 422),
    tags=["approvals"],
    operation_id="decideApprovalItem",
    summary="Decide an approval item",
)
async def decide(
    request: Request[object, object, State],
    state: State,
    item_id: Annotated[str, Parameter(max_length=64, description="The approval item's id.")],
    data: Annotated[DecideIn, body_examples.DECIDE],
) -> ApprovalItemOut:
    """Decide as the key's principal: ``choice`` (one of the options), ``outcome`` (your own
    outcome in words; the case settles on it) or ``deny``. Compare-and-set: a second decision
    gets 409 naming the first. The answer is the decided item with its ``verdict``."""
    _check_one_of(data)
    principal_id = caller(request).principal_id
    assert principal_id is not None  # a reviewer key is always bound to a principal
    accord = accord_of(state)
    choice, deny, reasoning, outcome = data.choice, data.deny, data.reasoning, data.outcome
    # on SQLite the decisions of one loop turn share one transaction (the queue's group
    # commit); on PostgreSQL the decision runs on a worker thread
    decided = await on_loop_if_sqlite(
        accord.db,
        lambda: decide_as_reviewer_async(
            accord,
            item_id,
            principal_id,
            choice=choice,
            deny=deny,
            reasoning=reasoning,
            outcome=outcome,
        ),
        lambda: decide_as_reviewer(
            accord,
            item_id,
            principal_id,
            choice=choice,
            deny=deny,
            reasoning=reasoning,
            outcome=outcome,
        ),
    )
    return ApprovalItemOut.of(decided, None)


@post(
    "/approvals/decisions",
    opt=allow(Role.REVIEWER),
    sync_to_thread=True,
    status_code=200,
    responses=error_responses(400, 401, 403, 413, 422),
    tags=["approvals"],
    operation_id="decideApprovalItems",
    summary="Decide several approval items",
)
def decide_many(
    request: Request[object, object, State], state: State, data: JSONBody[BulkDecideIn]
) -> BulkDecideOut:
    """Decide up to 100 items as the key's principal (the queue's batch bar). Each item is its
    own compare-and-set decision and its own signed entry: one that is refused (already
    decided, a party of yours, unknown) is reported with its error and does not stop the rest."""
    for index, one in enumerate(data.decisions):
        _check_one_of(one, f"decisions[{index}].")
    principal_id = caller(request).principal_id
    assert principal_id is not None  # a reviewer key is always bound to a principal
    verdicts = [
        Verdict(one.item_id, one.choice, one.deny, one.reasoning, one.outcome)
        for one in data.decisions
    ]
    results = []
    for one, outcome in zip(
        data.decisions, decide_each(accord_of(state), principal_id, verdicts), strict=True
    ):
        if isinstance(outcome, AccordError):
            body = error_body(outcome, request_id_of(request.scope)).model_dump(mode="json")
            error = {**body, "status": status_for(outcome)}
            results.append(BulkDecisionOut(item_id=one.item_id, outcome="refused", error=error))
        else:
            decided = ApprovalItemOut.of(outcome, None)
            results.append(BulkDecisionOut(item_id=one.item_id, outcome="decided", item=decided))
    return BulkDecideOut(results=results)


def _check_one_of(data: DecideIn, prefix: str = "") -> None:
    """Exactly one of choice, outcome or deny, before anything is decided (a batch is refused
    whole); the 422 names the field, with the batch index."""
    refuse_unless_one_decision(
        choice=data.choice, outcome=data.outcome, deny=data.deny, prefix=prefix
    )
