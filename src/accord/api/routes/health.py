"""``/health`` (the process answers) and ``/ready`` (database reachable, schema current)."""

from __future__ import annotations

from litestar import Response, get
from litestar.datastructures import State

from accord.api.routes._state import accord_of
from accord.api.schemas import Health
from accord.errors import StoreError
from accord.store import HEAD_REVISION, current_revisions


@get(
    "/health",
    sync_to_thread=False,
    tags=["service"],
    operation_id="getHealth",
    summary="Is the process up",
)
def health() -> Health:
    """Liveness: the process is up."""
    return Health(status="ok")


@get(
    "/ready",
    sync_to_thread=True,
    tags=["service"],
    operation_id="getReadiness",
    summary="Is the service ready to serve",
)
def ready(state: State) -> Response[Health]:
    """Readiness: the database answers and its migrations are at head (503 otherwise)."""
    accord = accord_of(state)
    try:
        with accord.db.read() as conn:
            revisions = current_revisions(conn)
    except StoreError as exc:
        return Response(Health(status="unavailable", detail=exc.code), status_code=503)
    if revisions != [HEAD_REVISION]:
        detail = f"schema at {', '.join(revisions) or 'nothing'}, expected {HEAD_REVISION}"
        return Response(Health(status="unavailable", detail=detail), status_code=503)
    return Response(Health(status="ready"), status_code=200)
