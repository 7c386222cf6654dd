"""``GET /api/v1/cases`` (filters, keyset paging), ``GET /api/v1/cases/{case_id}`` and its
timeline."""

from __future__ import annotations

from typing import Annotated

from litestar import get
from litestar.datastructures import State
from litestar.params import Parameter

from accord.api.errors import error_responses
from accord.api.guards import READERS, allow
from accord.api.queries.case_pages import MAX_PAGE, CaseFilter, case_page
from accord.api.queries.case_timeline import case_timeline
from accord.api.routes._state import accord_of
from accord.api.schemas import CaseOut, CasePage, CaseRow, Timeline

Filter = Annotated[str | None, Parameter(max_length=256)]


@get(
    "/cases",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 422),
    tags=["cases"],
    operation_id="listCases",
    summary="List cases",
)
def list_cases(
    state: State,
    status: Annotated[
        str | None,
        Parameter(
            max_length=256,
            description="Only cases with this status (settled, merged, escalated, expired...).",
        ),
    ] = None,
    kind: Annotated[
        str | None, Parameter(max_length=256, description="Only cases of this conflict kind.")
    ] = None,
    severity: Annotated[
        str | None,
        Parameter(
            max_length=256,
            description="Only cases of this severity: low, medium, high or critical.",
        ),
    ] = None,
    tier: Annotated[
        str | None, Parameter(max_length=256, description="Only cases that reached this tier.")
    ] = None,
    task_type: Annotated[
        str | None, Parameter(max_length=256, description="Only cases of this task type.")
    ] = None,
    session_id: Annotated[
        str | None, Parameter(max_length=256, description="Only cases of this session.")
    ] = None,
    agent: Annotated[
        str | None,
        Parameter(max_length=256, description="Only cases in which this agent took a position."),
    ] = None,
    limit: Annotated[
        int, Parameter(ge=1, le=MAX_PAGE, description="At most this many cases.")
    ] = 50,
    cursor: Annotated[
        str | None, Parameter(max_length=512, description="The next_cursor of the previous page.")
    ] = None,
) -> CasePage:
    """Cases, newest first; pass ``next_cursor`` back as ``cursor`` for the next page."""
    filters = CaseFilter(
        status=status,
        kind=kind,
        severity=severity,
        tier=tier,
        task_type=task_type,
        session_id=session_id,
        agent=agent,
    )
    page = case_page(accord_of(state).db, filters, limit=limit, cursor=cursor)
    return CasePage(
        items=[CaseRow.model_validate(r) for r in page.rows], next_cursor=page.next_cursor
    )


@get(
    "/cases/{case_id:str}",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404),
    tags=["cases"],
    operation_id="getCase",
    summary="Get a case",
)
def get_case(
    state: State, case_id: Annotated[str, Parameter(max_length=64, description="The case's id.")]
) -> CaseOut:
    """One case: the decision, the positions, the escalation, the deadline that will act next
    (and what happens then) and people's decision with its reason and written outcome."""
    accord = accord_of(state)
    case = accord.cases.get(case_id)
    item_id = case.approval_item_id
    item = None if item_id is None else accord.approvals.get(item_id)
    return CaseOut.of(case, accord.case_acting_deadline(case), item)


@get(
    "/cases/{case_id:str}/timeline",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404),
    tags=["cases"],
    operation_id="getCaseTimeline",
    summary="Get a case's timeline",
)
def get_timeline(
    state: State, case_id: Annotated[str, Parameter(max_length=64, description="The case's id.")]
) -> Timeline:
    """What happened to a case, oldest first: opened, each tier's attempts, escalation, the
    approval request and decision, the resolution."""
    accord = accord_of(state)
    case = accord.cases.get(case_id)
    item = accord.approvals.get(case.approval_item_id) if case.approval_item_id else None
    deadline = accord.case_deadline(case.case_id)
    return Timeline(case_id=case.case_id, events=case_timeline(case, item, deadline))
