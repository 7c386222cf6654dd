"""``GET /api/v1/dissent``: the overruled positions, filtered as ``accord dissent`` filters."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from litestar import get
from litestar.datastructures import State
from litestar.params import Parameter

from accord.api.errors import error_responses
from accord.api.guards import READERS, allow
from accord.api.queries.case_pages import MAX_PAGE
from accord.api.routes._state import accord_of
from accord.api.schemas import DissentPage

Filter = Annotated[str | None, Parameter(max_length=256)]


@get(
    "/dissent",
    opt=allow(*READERS),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403, 422),
    tags=["dissent"],
    operation_id="listDissent",
    summary="List recorded dissent",
)
def list_dissent(
    state: State,
    agent: Annotated[
        str | None, Parameter(max_length=256, description="Only dissent of this agent.")
    ] = None,
    department: Annotated[
        str | None,
        Parameter(max_length=256, description="Only dissent of agents in this department."),
    ] = None,
    kind: Annotated[
        str | None,
        Parameter(max_length=256, description="Only dissent from cases of this conflict kind."),
    ] = None,
    strategy: Annotated[
        str | None,
        Parameter(max_length=256, description="Only dissent from cases settled by this strategy."),
    ] = None,
    text: Annotated[
        str | None,
        Parameter(max_length=256, description="Only dissent whose reasoning contains this text."),
    ] = None,
    since: Annotated[
        datetime | None,
        Parameter(description="Only dissent recorded at or after this time (ISO 8601)."),
    ] = None,
    until: Annotated[
        datetime | None, Parameter(description="Only dissent recorded before this time (ISO 8601).")
    ] = None,
    limit: Annotated[
        int, Parameter(ge=1, le=MAX_PAGE, description="At most this many records.")
    ] = 50,
) -> DissentPage:
    """Dissent records matching every given filter, oldest first (``text`` searches them)."""
    records = accord_of(state).dissent.query(
        agent=agent,
        department=department,
        kind=kind,
        strategy=strategy,
        since=since,
        until=until,
        text=text,
        limit=limit,
    )
    return DissentPage(items=records)
