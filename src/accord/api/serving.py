"""The process side of ``accord serve``: the app factory uvicorn calls in each worker.

``accord serve`` puts its options into ``ACCORD_SERVE_*`` variables and lets uvicorn start
``app_from_environment`` once per worker process (the same code path for one worker or many),
so every worker opens its own ``Accord`` on the shared database and closes it on shutdown.
"""

from __future__ import annotations

import gc
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from litestar import Litestar
from litestar.stores.file import FileStore

from accord.api.app_factory import DEFAULT_MAX_BODY_BYTES, create_app
from accord.api.service_logging import configure_service_logging
from accord.app import Accord

ENV_CONFIG = "ACCORD_SERVE_CONFIG"
ENV_DB = "ACCORD_SERVE_DB"
ENV_KEYS = "ACCORD_SERVE_KEYS"
ENV_SWEEP = "ACCORD_SERVE_SWEEP_SECONDS"
ENV_MAX_BODY = "ACCORD_SERVE_MAX_BODY_BYTES"
ENV_SECURE_COOKIES = "ACCORD_SERVE_SECURE_COOKIES"
ENV_CSRF_SECRET = "ACCORD_SERVE_CSRF_SECRET"
ENV_SESSION_DIR = "ACCORD_SERVE_SESSION_DIR"


def serve_environment(
    *,
    config: str | None,
    db: str | None,
    keys: str | None,
    sweep_every: float | None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    secure_cookies: bool = False,
    session_dir: str | None = None,
) -> dict[str, str]:
    """The variables ``app_from_environment`` reads (an empty one means "not given").

    One CSRF secret is drawn here for every worker of this run; with ``session_dir`` the
    workers share sessions through files there (one worker keeps them in memory).
    """
    values = {
        ENV_CSRF_SECRET: secrets.token_hex(32),
        ENV_SESSION_DIR: session_dir or "",
        ENV_CONFIG: config or "",
        ENV_DB: db or "",
        ENV_KEYS: keys or "",
        ENV_SWEEP: "" if sweep_every is None else repr(sweep_every),
        ENV_MAX_BODY: str(max_body_bytes),
        ENV_SECURE_COOKIES: "1" if secure_cookies else "",
    }
    return values


def app_from_environment(environ: Mapping[str, str] | None = None) -> Litestar:
    """Open ``Accord`` as ``accord serve`` was told and build its app (uvicorn factory)."""
    env = os.environ if environ is None else environ
    configure_service_logging()
    accord = Accord.open(
        env.get(ENV_CONFIG) or None,
        db_url=env.get(ENV_DB) or None,
        keys_dir=env.get(ENV_KEYS) or None,
        background_refits=True,
    )
    sweep = env.get(ENV_SWEEP) or None
    session_dir = env.get(ENV_SESSION_DIR) or None
    return create_app(
        accord,
        sweep_every=None if sweep is None else float(sweep),
        max_body_bytes=int(env.get(ENV_MAX_BODY) or DEFAULT_MAX_BODY_BYTES),
        on_startup=[freeze_startup_heap],
        on_shutdown=[accord.close],
        secure_cookies=bool(env.get(ENV_SECURE_COOKIES)),
        csrf_secret=env.get(ENV_CSRF_SECRET) or None,
        session_store=None if session_dir is None else FileStore(Path(session_dir)),
        deliver_webhooks=True,
    )


def freeze_startup_heap() -> None:
    """Move what the worker built at startup (modules, the app, the opened ``Accord``) out of
    the garbage collector's reach: a full collection walks every tracked object, and over a
    started worker's ~160,000 objects it took about 100 ms on a 2-core machine, several
    times a minute under load — each a pause of every request in flight (issue 13's p99).
    Those objects live as long as the process, so collecting them could free nothing."""
    gc.collect()
    gc.freeze()
