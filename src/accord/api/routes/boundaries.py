"""Disagreement boundaries over HTTP: listed by session and status (a successor's hand-off),
one with its probe attempts, and resolving one by running its tie-breaker probe (admins
only: the probe is the operator's code)."""

from __future__ import annotations

from typing import Annotated

from litestar import get, post
from litestar.datastructures import State
from litestar.params import Parameter

from accord.api.api_keys import Role
from accord.api.errors import error_responses
from accord.api.guards import READERS, allow
from accord.api.routes._state import accord_of
from accord.api.schemas import BoundaryList, BoundaryOut
from accord.boundary import BoundaryStatus, ResolutionReceipt

BoundaryId = Annotated[str, Parameter(max_length=64, description="The boundary conflict's id.")]


@get(
    "/boundaries",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403),
    tags=["boundaries"],
    operation_id="listBoundaries",
    summary="List boundary conflicts",
)
def list_boundaries(
    state: State,
    session_id: Annotated[
        str | None,
        Parameter(max_length=128, description="Only boundary conflicts of this session."),
    ] = None,
    status: Annotated[
        BoundaryStatus | None, Parameter(description="Only boundary conflicts with this status.")
    ] = None,
) -> BoundaryList:
    """Boundaries, oldest first, optionally of one session and one status (``pending``: a
    successor can settle it with its probe)."""
    return BoundaryList(
        items=accord_of(state).boundaries.find(session_id=session_id, status=status)
    )


@get(
    "/boundaries/{boundary_id:str}",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 404),
    tags=["boundaries"],
    operation_id="getBoundary",
    summary="Get a boundary conflict",
)
def get_boundary(state: State, boundary_id: BoundaryId) -> BoundaryOut:
    """One boundary and every probe attempt made on it."""
    service = accord_of(state).boundaries
    return BoundaryOut(boundary=service.get(boundary_id), attempts=service.attempts(boundary_id))


@post(
    "/boundaries/{boundary_id:str}/resolve",
    opt=allow(Role.ADMIN),
    sync_to_thread=True,
    status_code=200,
    responses=error_responses(400, 401, 403, 404, 422),
    tags=["boundaries"],
    operation_id="resolveBoundary",
    summary="Resolve a boundary conflict",
)
def resolve_boundary(
    state: State,
    boundary_id: BoundaryId,
    timeout: Annotated[
        float, Parameter(gt=0.0, le=300.0, description="Seconds the probe may take.")
    ] = 10.0,
) -> ResolutionReceipt:
    """Run the boundary's tie-breaker probe; a settling probe resolves the boundary and its
    case (signed), a failing one is recorded as an attempt and the boundary stays pending."""
    accord = accord_of(state)
    accord.probes.load()  # a bad probe path is named before anything is looked up
    return accord.boundaries.resolve(boundary_id, timeout_s=timeout)
