"""``create_app``: the Litestar application around one injected ``Accord``.

The composition root is passed in (tests hand in an ``Accord`` on a real SQLite or
PostgreSQL database and drive the app with Litestar's ``TestClient``); nothing here opens a
database or reads the environment.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from litestar import Litestar, Request, Router
from litestar.config.csrf import CSRFConfig
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.static_files import create_static_files_router
from litestar.stores.base import Store
from litestar.stores.memory import MemoryStore
from litestar.template.config import TemplateConfig

from accord.api.api_keys import ApiKeyStore
from accord.api.body_check import refuse_deep_body
from accord.api.errors import EXCEPTION_HANDLERS
from accord.api.guards import BEARER, authenticate, refuse_unguarded_routes
from accord.api.metrics import Metrics
from accord.api.openapi_collections import ConstrainedCollections
from accord.api.query_check import refuse_unknown_query
from accord.api.request_context import request_context
from accord.api.routes import (
    approvals,
    boundaries,
    cases,
    collecting,
    dispute_rules,
    dispute_tiers,
    disputes,
    dissent,
    health,
    ledger,
    metrics,
    onboarding,
    parked,
    precedents,
    prepared_steps,
    settle,
    webhooks,
)
from accord.api.security_headers import add_security_headers
from accord.api.session_backend import IssuedOnlySessionConfig
from accord.api.sweeper import Sweeper
from accord.api.ui import bulk, dashboard, dispute_pages, pages, proof_page
from accord.api.ui.session import CSRF_COOKIE
from accord.api.webhook_worker import WebhookWorker
from accord.app import Accord

API_PREFIX = "/api/v1"
#: Paths where every route must name the roles it lets in (``guards.refuse_unguarded_routes``).
GUARDED = ("/api/", "/metrics")
DEFAULT_MAX_BODY_BYTES = 1_000_000
DEFAULT_SWEEP_SECONDS = 30.0
_HERE = Path(__file__).parent
_API_DESCRIPTION = (
    "Accord settles disagreements between AI agents: settle cases, people's approval items, "
    "DCP-07 disputes through their tiers, and the signed ledger that records every step. "
    "Every /api/v1 call takes `Authorization: Bearer <API key>`; each operation names the roles "
    "it lets in. An error answers `{code, message, field, rule}`."
)
#: Paths that take no session or CSRF token (the JSON API authenticates every request).
_STATELESS = ["^/api/", "^/health$", "^/ready$", "^/metrics$", "^/schema", "^/static/"]


async def _check_request(request: Request[Any, Any, Any]) -> None:
    """Every route's ``before_request``: the caller's key first, then the query and body."""
    await authenticate(request)
    refuse_unknown_query(request)
    await refuse_deep_body(request)


def create_app(
    accord: Accord,
    *,
    sweep_every: float | None = DEFAULT_SWEEP_SECONDS,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    on_startup: Sequence[Callable[[], object]] = (),
    on_shutdown: Sequence[Callable[[], object]] = (),
    secure_cookies: bool = False,
    csrf_secret: str | None = None,
    session_store: Store | None = None,
    poll_interval: float = parked.DEFAULT_POLL_SECONDS,
    deliver_webhooks: bool = False,
    stream_seconds: float | None = None,
    heartbeat_seconds: float | None = None,
) -> Litestar:
    """The service for ``accord``; ``sweep_every=None`` runs no deadline sweeper.

    ``on_startup`` runs after the sweeper has started; ``on_shutdown`` after it has stopped
    (e.g. closing what opened ``accord``).
    Several worker processes must share ``csrf_secret`` and a ``session_store`` (a
    ``FileStore``); one process may keep the defaults (a random secret, memory).
    ``secure_cookies`` marks cookies Secure: set it when served behind TLS.
    ``poll_interval`` is how often a parked task's long-poll or event stream checks the store.
    ``deliver_webhooks`` runs the webhook delivery worker (``accord serve`` does);
    ``stream_seconds`` and ``heartbeat_seconds`` override ``event_stream:`` of the config.
    """
    if poll_interval <= 0:
        raise ValueError("poll_interval is a positive number of seconds")
    registry = Metrics(accord.db)
    sweeper = Sweeper(accord, sweep_every) if sweep_every is not None else None
    settings = accord.config.settings
    worker = (
        WebhookWorker(accord, settings.webhooks.interval_seconds)
        if deliver_webhooks and not accord.read_only
        else None
    )
    background = [w for w in (sweeper, worker) if w is not None]
    api = Router(
        API_PREFIX,
        route_handlers=[
            settle.settle_one,
            settle.settle_batch,
            settle.request_approval,
            cases.list_cases,
            cases.get_case,
            cases.get_timeline,
            approvals.list_approvals,
            approvals.get_approval,
            approvals.get_receipt,
            approvals.decide,
            approvals.decide_many,
            parked.park,
            parked.get_parked,
            parked.wait_for_decision,
            parked.decision_events,
            dissent.list_dissent,
            precedents.search_precedents,
            precedents.get_precedent,
            precedents.export_precedent,
            boundaries.list_boundaries,
            boundaries.get_boundary,
            boundaries.resolve_boundary,
            ledger.verify,
            ledger.tail,
            ledger.checkpoint,
            ledger.inclusion_proof,
            ledger.consistency_proof,
            *disputes.ROUTES,
            *dispute_tiers.ROUTES,
            *prepared_steps.ROUTES,
            *dispute_rules.ROUTES,
            *collecting.ROUTES,
            *webhooks.ROUTES,
            *onboarding.ROUTES,
        ],
        security=[BEARER],
    )
    app = Litestar(
        route_handlers=[
            health.health,
            health.ready,
            metrics.metrics,
            api,
            pages.home,
            pages.signin_page,
            pages.signin,
            pages.signout,
            pages.queue,
            pages.queue_rows,
            bulk.decide_selected,
            pages.history,
            proof_page.proof_page,
            proof_page.proof_download,
            pages.case_page,
            pages.decide,
            dashboard.dashboard,
            dispute_pages.disputes_page,
            dispute_pages.dispute_page,
            dispute_pages.stay_page,
            dispute_pages.appeal_page,
            dispute_pages.appeal_sign_page,
            create_static_files_router(
                path="/static", directories=[_HERE / "static"], include_in_schema=False
            ),
        ],
        state=State(
            {
                "accord": accord,
                "api_keys": ApiKeyStore(accord.ledger, accord.clock),
                "metrics": registry,
                "sweeper": sweeper,
                "poll_interval": poll_interval,
                "stream_seconds": stream_seconds or settings.event_stream.max_seconds,
                "heartbeat_seconds": heartbeat_seconds or settings.event_stream.heartbeat_seconds,
            }
        ),
        exception_handlers=EXCEPTION_HANDLERS,
        plugins=[ConstrainedCollections()],
        before_request=_check_request,
        before_send=[add_security_headers],
        middleware=[
            request_context(registry.observe),
            IssuedOnlySessionConfig(
                key="accord_session",
                max_age=accord.config.settings.reviewer_sessions.absolute_minutes * 60,
                httponly=True,
                samesite="strict",
                secure=secure_cookies,
                exclude=_STATELESS,
            ).middleware,
        ],
        stores={"sessions": session_store or MemoryStore()},
        csrf_config=CSRFConfig(
            secret=csrf_secret or secrets.token_hex(32),
            cookie_name=CSRF_COOKIE,
            cookie_httponly=True,
            cookie_samesite="strict",
            cookie_secure=secure_cookies,
            exclude=_STATELESS,
        ),
        template_config=TemplateConfig(directory=_HERE / "templates", engine=JinjaTemplateEngine),
        request_max_body_size=max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="Accord",
            version="1",
            path="/schema",
            description=_API_DESCRIPTION,
            use_handler_docstrings=True,
            components=Components(
                security_schemes={"apiKey": SecurityScheme(type="http", scheme="bearer")}
            ),
        ),
        on_startup=[*(w.start for w in background), *on_startup],
        on_shutdown=[*(w.stop for w in background), *on_shutdown],
    )
    refuse_unguarded_routes(app, GUARDED)
    return app
