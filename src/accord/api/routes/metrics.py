"""``GET /metrics``: the Prometheus text format (auditor or admin key)."""

from __future__ import annotations

from typing import cast

from litestar import Response, get
from litestar.datastructures import State

from accord.api.api_keys import Role
from accord.api.errors import error_responses
from accord.api.guards import BEARER, allow
from accord.api.metrics import CONTENT_TYPE, Metrics


@get(
    "/metrics",
    opt=allow(Role.AUDITOR, Role.ADMIN),
    sync_to_thread=True,
    responses=error_responses(400, 401, 403),
    tags=["service"],
    media_type=CONTENT_TYPE,
    security=[BEARER],
    operation_id="getMetrics",
    summary="Prometheus metrics",
)
def metrics(state: State) -> Response[bytes]:
    """Cases by kind/tier/status, disputes by type/status/tier, approval queue depth,
    request latency."""
    return Response(cast(Metrics, state["metrics"]).render(), media_type=CONTENT_TYPE)
