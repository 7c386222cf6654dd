"""``create_app``: the Litestar application around one injected ``Accord``.

The composition root is passed in (tests hand in an ``Accord`` on a real SQLite or
PostgreSQL database and drive the app with Litestar's ``TestClient``); nothing here opens a
database or reads the environment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from litestar import Litestar, Router
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from accord.api.api_keys import ApiKeyStore
from accord.api.errors import EXCEPTION_HANDLERS
from accord.api.guards import BEARER
from accord.api.metrics import Metrics
from accord.api.request_context import request_context
from accord.api.routes import approvals, cases, health, ledger, metrics, settle
from accord.api.sweeper import Sweeper
from accord.app import Accord

API_PREFIX = "/api/v1"
DEFAULT_MAX_BODY_BYTES = 1_000_000
DEFAULT_SWEEP_SECONDS = 30.0


def create_app(
    accord: Accord,
    *,
    sweep_every: float | None = DEFAULT_SWEEP_SECONDS,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    on_shutdown: Sequence[Callable[[], object]] = (),
) -> Litestar:
    """The service for ``accord``; ``sweep_every=None`` runs no deadline sweeper.

    ``on_shutdown`` runs after the sweeper has stopped (e.g. closing what opened ``accord``).
    """
    registry = Metrics(accord.db)
    sweeper = Sweeper(accord, sweep_every) if sweep_every is not None else None
    api = Router(
        API_PREFIX,
        route_handlers=[
            settle.settle_one,
            settle.settle_batch,
            cases.list_cases,
            cases.get_case,
            approvals.list_approvals,
            approvals.get_approval,
            approvals.decide,
            ledger.verify,
            ledger.tail,
        ],
        security=[BEARER],
    )
    return Litestar(
        route_handlers=[health.health, health.ready, metrics.metrics, api],
        state=State(
            {
                "accord": accord,
                "api_keys": ApiKeyStore(accord.db, accord.clock),
                "metrics": registry,
                "sweeper": sweeper,
            }
        ),
        exception_handlers=EXCEPTION_HANDLERS,
        middleware=[request_context(registry.observe)],
        request_max_body_size=max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="Accord",
            version="1",
            path="/schema",
            components=Components(
                security_schemes={"apiKey": SecurityScheme(type="http", scheme="bearer")}
            ),
        ),
        on_startup=[sweeper.start] if sweeper else [],
        on_shutdown=[*([sweeper.stop] if sweeper else []), *on_shutdown],
    )
